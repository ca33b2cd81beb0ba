#!/usr/bin/env bash
# The gate issue's experiments, each repeated GATES times, counting the gates' exit statuses:
#   instructions-aa   the same executable on both sides, `bench --measure instructions` (expect exit 0)
#   instructions-ab   the candidate runs a fixed loop in every avcodec_send_packet (scripts/slowdown-shim.c,
#                     FILMSTRIP_SHIM_LOOP, ~1 % of extraction): expect exit 2 naming avcodec_send_packet (shim.so)
#   busy-ab           time gate at the defaults (--until-decided) against a candidate that busy-waits
#                     150 µs in every avcodec_send_packet (~2x extraction): expect exit 2, never 0
#   one-ab            time gate at the defaults, +10 % CPU time in one configuration only (the shim's
#                     FILMSTRIP_SLOWDOWN for the runs whose configuration matches every --match): expect exit 2
#   time-aa           time gate at the defaults, the same executable twice: expect no exit 2
#   undecided         `bench --repetitions 2 --no-until-decided` then `compare`: expect exit 3
#   counters-aa       `bench --repetitions 2 --no-until-decided`, the same executable twice: expect no exit 2
#                     (counters of work shared by several workers move with the scheduling; issue 37)
# The lost-parallelism experiments (issue 37) run on one 20 s 1080p H.264 clip made here with libx264
# (--clip FILE to use another), `--counts 40 --extractors taskgroup --composers rowcopy --workers 2
# --threads 1 --pipelines-only` instead of the quick suite:
#   lock-ab           time gate at the defaults against a candidate whose decoders share one mutex
#                     (scripts/lock-shim.c: same CPU time, longer wall time): expect exit 2 naming wall
#   lock-aa           the same matrix, the same executable twice: expect no exit 2
#   lock-cost         no gate: GATES interleaved pairs of `strip` with and without the lock shim;
#                     prints the medians of the candidate / baseline ratios of wall and CPU time
#   wall-spread       no gate: A/A of sequential and taskgroup (1 and 2 workers) on the clip,
#                     `--repetitions GATES --no-until-decided`; prints each configuration's paired
#                     95 % interval of wall and CPU time (the spread a wall gate must see through)
# Usage: scripts/gate-experiments.sh --binary RELEASE_FILMSTRIP [--gates N] [--out DIR] [--threshold T] [--match PATTERN]... [--clip FILE] EXPERIMENT... [-- BENCH OPTIONS]
# (--threshold goes to both `bench` and `compare`, e.g. 10% for a time gate on a noisy runner.)
# Each gate's report is kept in DIR (default results/local/gate-experiments); one summary line per
# experiment with the wall time of its gates. Long: run it on a quiet machine, not in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="" gates=20 out=results/local/gate-experiments loop=3000 matches=() threshold="" experiments=() clip=""
while (($#)); do
    case $1 in
        --binary) binary=$2; shift 2 ;;
        --gates) gates=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --loop) loop=$2; shift 2 ;;
        --match) matches+=("$2"); shift 2 ;;
        --threshold) threshold=$2; shift 2 ;;
        --clip) clip=$2; shift 2 ;;
        --) shift; break ;;
        *) experiments+=("$1"); shift ;;
    esac
done
matrix=("$@")
source scripts/experiment-setup.sh gate-experiments
cc -O2 -shared -fPIC -o "$out/shim.so" scripts/slowdown-shim.c -ldl
wrapper() { # NAME ENVIRONMENT...
    { echo '#!/bin/sh'
      for setting in "${@:2}"; do echo "export $setting"; done
      echo "LD_PRELOAD=\"\${LD_PRELOAD:+\$LD_PRELOAD:}$out/shim.so\" exec $out/filmstrip \"\$@\""; } > "$out/$1"
    chmod +x "$out/$1"
}
wrapper loop.sh "FILMSTRIP_SHIM_LOOP=$loop"
cc -O2 -shared -fPIC -o "$out/lock.so" scripts/lock-shim.c -ldl -lpthread
{ echo '#!/bin/sh'
  echo "LD_PRELOAD=\"\${LD_PRELOAD:+\$LD_PRELOAD:}$out/lock.so\" exec $out/filmstrip \"\$@\""; } > "$out/lock.sh"
chmod +x "$out/lock.sh"
wrapper busy.sh "FILMSTRIP_SHIM_SPIN_US=150"
# +10 % only where the child's configuration (its JSON argument, keys in any order) matches every
# --match (grep -E patterns; default: forward+rowcopy on h264-180p-3s with 50 thumbnails, one
# configuration of the quick suite). Each child that gets the slowdown leaves a line in
# one-matched.log: a gate in which none did is an error, not a result (a renamed JSON key once
# made this experiment measure nothing).
((${#matches[@]})) || matches=('"frameCount":50[,}]' '"extractor":"forward"' '"composer":"rowcopy"' '"videoID":"h264-180p-3s"')
condition=""
for pattern in "${matches[@]}"; do condition+="${condition:+ && }printf '%s' \"\$*\" | grep -Eq '$pattern'"; done
{ echo '#!/bin/sh'
  echo "if $condition; then export FILMSTRIP_SLOWDOWN=0.10; echo x >> $out/one-matched.log; fi"
  echo "LD_PRELOAD=\"\${LD_PRELOAD:+\$LD_PRELOAD:}$out/shim.so\" exec $out/filmstrip \"\$@\""; } > "$out/one.sh"
chmod +x "$out/one.sh"

# The lost-parallelism clip: 20 s of 1080p H.264 (libx264, GOP 60), made once.
lock_clip() {
    if [ -z "$clip" ]; then
        clip=$out/clip-1080p-h264.mp4
        [ -s "$clip" ] || ffmpeg -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30" -t 20 \
            -c:v libx264 -preset veryfast -g 60 -pix_fmt yuv420p "$clip"
    fi
    lock_matrix=(--videos "$clip" --counts 40 --extractors taskgroup --composers rowcopy --workers 2 --threads 1 --pipelines-only)
}

# `strip` on the clip with and without the lock, GATES interleaved pairs (the order alternating);
# the medians of the candidate / baseline ratios of wall time and of CPU time (user + system).
lock_cost() {
    local pairs=$1 index ratios=$out/lock-cost.txt
    : > "$ratios"
    one() { # WRAPPER-OR-BINARY: prints "wall cpu" of one run
        local TIMEFORMAT='%R %U %S'
        { time "$1" strip "$clip" --count 40 --extractor taskgroup --workers 2 --threads 1 -o "$out/lock-cost.png" > /dev/null 2>&1; } 2>&1 \
            | awk '{ print $1, $2 + $3 }'
    }
    for ((index = 0; index < pairs; index++)); do
        if ((index % 2)); then locked=$(one "$out/lock.sh"); plain=$(one "$out/filmstrip"); else plain=$(one "$out/filmstrip"); locked=$(one "$out/lock.sh"); fi
        echo "$plain $locked" | awk '{ printf "%.4f %.4f %s %s %s %s\n", $3 / $1, $4 / $2, $1, $2, $3, $4 }' >> "$ratios"
    done
    local wall cpu
    wall=$(cut -d' ' -f1 "$ratios" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    cpu=$(cut -d' ' -f2 "$ratios" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    echo "lock-cost: $pairs interleaved pairs, median lock / plain: wall ${wall}x, cpu ${cpu}x (pairs: $ratios; load: $(cut -d' ' -f1-3 /proc/loadavg))"
}

# compare wraps its lines to 100 columns; a continuation is indented four spaces more than the
# line it continues. joined FILE: each line whole again, for the greps below.
joined() {
    awk '{ match($0, /^ */); indent = RLENGTH }
         n && indent >= 4 && indent == last + 4 { line = line " " substr($0, indent + 1); next }
         { if (n) print line; line = $0; last = indent; n = 1 }
         END { if (n) print line }' "$1"
}

gate() { # EXPERIMENT INDEX BENCH-ARGUMENTS...
    local name="$out/$1-$2" status=0
    local -a gate_threshold=()
    # Instruction runs keep compare's own default (0.5 %); bench takes no threshold there.
    if [ -n "$threshold" ] && [[ " ${*:3} " != *" instructions "* ]]; then gate_threshold=(--threshold "$threshold"); fi
    local -a suite=(--suite quick)
    [[ $1 != lock-* ]] || suite=("${lock_matrix[@]}")
    local began=$SECONDS
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" > "$name-load.txt"
    "$binary" bench "${suite[@]}" "${matrix[@]}" "${gate_threshold[@]}" --out "$name" "${@:3}" > "$name-bench.txt" 2>&1 || { echo "bench failed: $name-bench.txt" >&2; return 99; }
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); bench took $((SECONDS - began)) s" >> "$name-load.txt"
    "$binary" compare "$name-raw.csv" "${gate_threshold[@]}" > "$name-compare.txt" 2>&1 || status=$?
    return $status
}

for experiment in "${experiments[@]}"; do
    [[ $experiment != lock-* && $experiment != wall-spread ]] || lock_clip
    if [ "$experiment" = lock-cost ]; then lock_cost "$gates"; continue; fi
    if [ "$experiment" = wall-spread ]; then
        name=$out/wall-spread
        "$binary" bench --videos "$clip" --counts 40 --extractors sequential,taskgroup --composers rowcopy --workers 1,2 --threads 1 \
            --pipelines-only --repetitions "$gates" --no-until-decided --baseline-binary "$out/filmstrip" --candidate-binary "$out/filmstrip" \
            --out "$name" "${matrix[@]}" > "$name-bench.txt" 2>&1 || { echo "bench failed: $name-bench.txt" >&2; exit 99; }
        "$binary" compare "$name-raw.csv" --format json > "$name-compare.json" || true
        echo "wall-spread: $gates A/A pairs (load after: $(cut -d' ' -f1-3 /proc/loadavg)); paired 95 % intervals of candidate / baseline:"
        jq -r '.configurations[] | select(.gated) | "  \(.configuration) \(.metric): \((.ratio - 1) * 100 | . * 10 | round / 10) % (\((.ratio_low - 1) * 100 | . * 10 | round / 10) … \((.ratio_high - 1) * 100 | . * 10 | round / 10) %)"' "$name-compare.json"
        continue
    fi
    declare -A count=()
    named=0 started=$SECONDS
    for ((index = 0; index < gates; index++)); do
        status=0
        case $experiment in
            instructions-aa) gate "$experiment" $index --measure instructions --baseline-binary "$out/filmstrip" --candidate-binary "$out/filmstrip" || status=$? ;;
            instructions-ab) gate "$experiment" $index --measure instructions --baseline-binary "$out/filmstrip" --candidate-binary "$out/loop.sh" || status=$?
                joined "$out/$experiment-$index-compare.txt" | grep -q "^slower: .* extract: .*avcodec_send_packet (shim.so)" && named=$((named + 1)) ;;
            busy-ab) gate "$experiment" $index --baseline-binary "$out/filmstrip" --candidate-binary "$out/busy.sh" || status=$? ;;
            one-ab) rm -f "$out/one-matched.log"
                gate "$experiment" $index --baseline-binary "$out/filmstrip" --candidate-binary "$out/one.sh" || status=$?
                [ -s "$out/one-matched.log" ] || { echo "gate-experiments: no child matched ${matches[*]}: the candidate was not slowed" >&2; exit 70; } ;;
            time-aa) gate "$experiment" $index --baseline-binary "$out/filmstrip" --candidate-binary "$out/filmstrip" || status=$? ;;
            undecided) gate "$experiment" $index --repetitions 2 --no-until-decided --baseline-binary "$out/filmstrip" || status=$? ;;
            counters-aa) gate "$experiment" $index --repetitions 2 --no-until-decided --baseline-binary "$out/filmstrip" --candidate-binary "$out/filmstrip" || status=$? ;;
            lock-ab) gate "$experiment" $index --baseline-binary "$out/filmstrip" --candidate-binary "$out/lock.sh" || status=$?
                joined "$out/$experiment-$index-compare.txt" | grep -q "^slower: .* wall +" && named=$((named + 1)) ;;
            lock-aa) gate "$experiment" $index --baseline-binary "$out/filmstrip" --candidate-binary "$out/filmstrip" || status=$? ;;
            *) echo "gate-experiments: unknown experiment $experiment" >&2; exit 64 ;;
        esac
        count[$status]=$(( ${count[$status]:-0} + 1 ))
    done
    summary=""
    for status in "${!count[@]}"; do summary+=" exit $status: ${count[$status]}"; done
    echo "$experiment: $gates gates in $((SECONDS - started)) s;$summary$([ "$experiment" = instructions-ab ] && echo "; shim named in $named")$([ "$experiment" = lock-ab ] && echo "; wall change named in $named") (load now: $(cut -d' ' -f1-3 /proc/loadavg))"
    unset count
done
