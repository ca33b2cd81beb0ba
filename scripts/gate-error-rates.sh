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
# usage: scripts/gate-error-rates.sh [--binary PATH] [--runner PATH] [--gates 20] [--pairs 10] [--slowdown 0.10]
#        [--threshold 5%] [--out DIR] [--fixtures-dir DIR] [--judge-only | --only aa|ab] [-- BENCH MATRIX OPTIONS…]
# --binary is the executable measured (both builds' children); --runner runs `bench` and
# `compare` (default: --binary), e.g. a newer build's gate on runs of an older binary.
# Every gate is judged on wall time (wall_s) and on CPU time (cpu_s); --judge-only re-judges
# the runs already in --out (e.g. with another --pairs or --threshold).
# The default matrix is a decode-bound subset of the quick suite (about 6 configurations).
set -euo pipefail
cd "$(dirname "$0")/.."

binary=.build/release/filmstrip
runner=
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
        --runner) runner=$2; shift 2 ;;
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
runner=${runner:-$binary}
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
    local started=$SECONDS sampler
    # The machine's load during the run (1-minute load average every 15 s): the error rates depend on it.
    : > "$out/$1-loadavg.txt"
    # Its output goes nowhere (a caller reading ours to its end must not wait for it), and it
    # is killed with SIGKILL: a parent may have left SIGTERM ignored (seen under the test runner).
    while true; do cut -d' ' -f1 /proc/loadavg >> "$out/$1-loadavg.txt"; sleep 15; done > /dev/null 2>&1 < /dev/null &
    sampler=$!
    trap "kill -KILL $sampler 2> /dev/null" EXIT
    # Fixed pairs (no --until-decided): the run is cut into blocks, each judged as one gate.
    "$runner" bench "${matrix[@]}" "${fixtures[@]}" --repetitions "$repetitions" --warmup 0 --no-until-decided \
        --baseline-binary "$binary" --candidate-binary "$2" --out "$out/$1" > "$out/$1-bench.txt"
    kill -KILL "$sampler"
    trap - EXIT
    echo "$1: $repetitions repetitions × 2 builds in $((SECONDS - started)) s, load average" \
        "$(sort -g "$out/$1-loadavg.txt" | awk '{ v[NR] = $1; s += $1 } END { printf "%.1f (min) %.1f (mean) %.1f (max) over %d samples", v[1], s / NR, v[NR], NR }')"
}

# Splits NAME-raw.csv into GATES files by repetition block; prints how many gates passed (exit 0),
# regressed (2), were undecided (3 with outcome "undecided") and could not compare (any other).
# NAME `aa+`: the A/A run with every candidate time multiplied by 1 + SLOWDOWN, an exact
# slowdown on the machine's real noise (the shim's own slowdown is only near SLOWDOWN).
judge() { # NAME METRIC
    local header column block status passed=0 regressed=0 undecided=0 other=0 source=${1%+} factor=1
    [ "$1" = "aa+" ] && factor=$(awk -v s="$slowdown" 'BEGIN { print 1 + s }')
    header=$(head -1 "$out/$source-raw.csv")
    column=$(echo "$header" | tr ',' '\n' | grep -n '^repetition$' | cut -d: -f1)
    local -a times=()
    for name in build wall_s cpu_user_s cpu_sys_s; do times+=("$(echo "$header" | tr ',' '\n' | grep -n "^$name\$" | cut -d: -f1)"); done
    for ((block = 0; block < gates; block++)); do
        { echo "$header"; awk -F, -v OFS=, -v c="$column" -v lo=$((block * pairs)) -v hi=$(((block + 1) * pairs)) \
            -v b="${times[0]}" -v w="${times[1]}" -v u="${times[2]}" -v y="${times[3]}" -v f="$factor" \
            'NR > 1 && $c >= lo && $c < hi { if (f != 1 && $b == "candidate" && $w != "") { $w *= f; $u *= f; $y *= f }; print }' \
            "$out/$source-raw.csv"; } > "$out/block-$1-$block.csv"
        status=0
        "$runner" compare "$out/block-$1-$block.csv" --threshold "$threshold" --metric "$2" --format json \
            > "$out/block-$1-$block-$2.json" 2> "$out/block-$1-$block-$2.stderr.txt" || status=$?
        case $status in
            0) passed=$((passed + 1)) ;;
            2) regressed=$((regressed + 1)) ;;
            3) if grep -Eq '"outcome" *: *"undecided"' "$out/block-$1-$block-$2.json"; then undecided=$((undecided + 1)); else other=$((other + 1)); fi ;;
            *) other=$((other + 1)) ;;
        esac
    done
    echo "$passed $regressed $undecided $other"
}

if ! $judge_only; then
    for name in $experiments; do
        if [ "$name" = aa ]; then run aa "$binary"; else run ab "$out/slower-filmstrip"; fi
    done
fi
echo "gates: $gates per experiment, $pairs pairs each, threshold $threshold, slowdown $slowdown of decoding"
for metric in wall_s cpu_s; do
    read -r aa_passed aa_regressed aa_undecided aa_other < <(judge aa $metric)
    read -r ab_passed ab_regressed ab_undecided ab_other < <(judge ab $metric)
    read -r exact_passed exact_regressed exact_undecided exact_other < <(judge aa+ $metric)
    echo "$metric A/A:  false alarms $aa_regressed/$gates (passed $aa_passed, undecided $aa_undecided, could not compare $aa_other)"
    echo "$metric A/B': caught $ab_regressed/$gates (passed $ab_passed, undecided $ab_undecided, could not compare $ab_other)"
    echo "$metric A/A × (1 + $slowdown): caught $exact_regressed/$gates (passed $exact_passed, undecided $exact_undecided, could not compare $exact_other)"
done
# The slowdown the shim really made, from all pairs of the A/B' run at once (the same gate
# on every pair), and which configurations the block gates called, from the JSON reports.
summarise() { # METRIC
    "$runner" compare "$out/ab-raw.csv" --threshold "$threshold" --metric "$1" --format json 2>/dev/null > "$out/ab-all-$1.json" || true
    python3 - "$out" "$1" "$repetitions" <<'PYTHON'
import glob, json, sys
out, metric, repetitions = sys.argv[1], sys.argv[2], sys.argv[3]
report = json.load(open(f"{out}/ab-all-{metric}.json"))
print(f" {metric}, A/B' all {repetitions} pairs at once (the slowdown the shim made):")
for c in report["configurations"]:
    print(f"  {(c['ratio'] - 1) * 100:+6.1f} % ({(c['ratio_low'] - 1) * 100:+.1f} … {(c['ratio_high'] - 1) * 100:+.1f} %)  {c['configuration']}")
for name in ("aa", "ab", "aa+"):
    called = {}
    files = sorted(glob.glob(f"{out}/block-{name}-*-{metric}.json"))
    for path in files:
        for c in json.load(open(path))["configurations"]:
            if c["verdict"] != "same":
                called[(c["configuration"], c["verdict"])] = called.get((c["configuration"], c["verdict"]), 0) + 1
    print(f" {metric}, {name} gates calling each configuration (of {len(files)}):")
    for (configuration, verdict), count in sorted(called.items()):
        print(f"  {count:3d} {verdict:7s} {configuration}")
PYTHON
}
for metric in wall_s cpu_s; do summarise $metric; done
