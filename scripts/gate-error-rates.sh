#!/usr/bin/env bash
# Measures the regression gate's error rates with real runs (issue 10):
# - A/A: the same executable as baseline and candidate; every gate that says "slower"
#   (exit 2) is a false alarm;
# - A/B': the candidate is the same executable made slower without a code change: an
#   LD_PRELOAD shim (scripts/slowdown-shim.c) busy-waits for a fraction of every decode
#   call; every gate that does not say "slower" missed it.
# Machine time is scarce, so each experiment is ONE long interleaved two-build run whose
# repetitions are split into GATES disjoint blocks of PAIRS consecutive repetitions; each
# block is one independent gate (`filmstrip compare BLOCK.csv`).
#
# usage: scripts/gate-error-rates.sh [--binary PATH] [--gates 20] [--pairs 10] [--slowdown 0.10]
#        [--threshold 5%] [--out DIR] [--fixtures-dir DIR] [--judge-only | --only aa|ab] [-- BENCH MATRIX OPTIONS…]
# Every gate is judged on wall time (wall_s) and on CPU time (cpu_s); --judge-only re-judges
# the runs already in --out (e.g. with another --pairs or --threshold).
# The default matrix is a decode-bound subset of the quick suite (about 6 configurations).
set -euo pipefail
cd "$(dirname "$0")/.."

binary=.build/release/filmstrip
gates=20
pairs=10
slowdown=0.10
threshold=5%
out=results/local/gate-error-rates
fixtures=()
judge_only=false
experiments="aa ab"
matrix=(--suite quick --videos h264-180p-3s,hevc-180p-2s --extractors forward --composers rowcopy --counts 10)
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary=$2; shift 2 ;;
        --gates) gates=$2; shift 2 ;;
        --pairs) pairs=$2; shift 2 ;;
        --slowdown) slowdown=$2; shift 2 ;;
        --threshold) threshold=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --fixtures-dir) fixtures=(--fixtures-dir "$2"); shift 2 ;;
        --judge-only) judge_only=true; shift ;;
        --only) experiments=$2; shift 2 ;;
        --) shift; matrix=("$@"); break ;;
        *) echo "gate-error-rates: unknown option $1" >&2; exit 64 ;;
    esac
done
[ -x "$binary" ] || { echo "gate-error-rates: $binary: no such executable (swift build -c release first)" >&2; exit 1; }
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/block-*
if ! $judge_only; then for name in $experiments; do rm -f "$out/$name"-*; done; fi

# The slower candidate: the same executable with the shim preloaded.
cc -O2 -shared -fPIC -o "$out/slowdown-shim.so" scripts/slowdown-shim.c -ldl
cat > "$out/slower-filmstrip" <<WRAPPER
#!/bin/sh
FILMSTRIP_SLOWDOWN=$slowdown LD_PRELOAD=$out/slowdown-shim.so exec $binary "\$@"
WRAPPER
chmod +x "$out/slower-filmstrip"

repetitions=$((gates * pairs))
run() { # NAME CANDIDATE
    local started=$SECONDS
    "$binary" bench "${matrix[@]}" "${fixtures[@]}" --repetitions "$repetitions" --warmup 0 \
        --baseline-binary "$binary" --candidate-binary "$2" --out "$out/$1" > "$out/$1-bench.txt"
    echo "$1: $repetitions repetitions × 2 builds in $((SECONDS - started)) s"
}

# Splits NAME-raw.csv into GATES files by repetition block; prints how many gates exited 0, 2 and other.
judge() { # NAME METRIC
    local header column block status passed=0 regressed=0 other=0
    header=$(head -1 "$out/$1-raw.csv")
    column=$(echo "$header" | tr ',' '\n' | grep -n '^repetition$' | cut -d: -f1)
    for ((block = 0; block < gates; block++)); do
        { echo "$header"; awk -F, -v c="$column" -v lo=$((block * pairs)) -v hi=$(((block + 1) * pairs)) \
            'NR > 1 && $c >= lo && $c < hi' "$out/$1-raw.csv"; } > "$out/block-$1-$block.csv"
        status=0
        "$binary" compare "$out/block-$1-$block.csv" --threshold "$threshold" --metric "$2" > "$out/block-$1-$block-$2.txt" 2>&1 || status=$?
        case $status in
            0) passed=$((passed + 1)) ;;
            2) regressed=$((regressed + 1)) ;;
            *) other=$((other + 1)) ;;
        esac
    done
    echo "$passed $regressed $other"
}

if ! $judge_only; then
    for name in $experiments; do
        if [ "$name" = aa ]; then run aa "$binary"; else run ab "$out/slower-filmstrip"; fi
    done
fi
echo "gates: $gates per experiment, $pairs pairs each, threshold $threshold, slowdown $slowdown of decoding"
for metric in wall_s cpu_s; do
    read -r aa_passed aa_regressed aa_other < <(judge aa $metric)
    read -r ab_passed ab_regressed ab_other < <(judge ab $metric)
    echo "$metric A/A:  false alarms $aa_regressed/$gates (passed $aa_passed, could not compare $aa_other)"
    echo "$metric A/B': caught $ab_regressed/$gates (passed $ab_passed, could not compare $ab_other)"
done
# The slowdown the shim really made, from all pairs of the A/B' run at once.
echo "A/B' all $repetitions pairs at once (the slowdown the shim made):"
for metric in wall_s cpu_s; do
    echo " $metric:"
    "$binary" compare "$out/ab-raw.csv" --threshold "$threshold" --metric $metric 2>/dev/null | grep -E ' (extract|total|calibration|compose) ' | sed -E 's/^([^ ]+) .* ([a-z0-9-]+ ×[0-9]+ .*)$/  \1 \2/' || true
done
# Which configurations the A/B' gates called, for reading the figures.
echo "A/B' verdicts per configuration (slower / gates):"
grep -h " slower" "$out"/block-ab-*-wall_s.txt | sed -E 's/ +[0-9.e+-]+ +[0-9.e+-]+ +[+-].*//' | sort | uniq -c | sed 's/^/  /' || true
