#!/usr/bin/env bash
# Issue 47's experiments: does the gate tell the program's own waiting from the machine's?
# One small parallel configuration (default: taskgroup+rowcopy, 2 workers, h264-180p-3s ×10), two
# candidates against a stripped copy of --binary: the same executable (A/A) and the decoder-lock
# shim (scripts/lock-shim.c: every avcodec_send_packet/receive_frame under one mutex; the same
# work, parallelism lost). Each experiment runs quiet, or with --load under
# scripts/background-load.sh (load average about 6 on 2 cores; no real-time scheduling):
#   spread     no gate: PAIRS interleaved pairs per candidate (--no-until-decided); per metric the
#              median candidate / baseline ratio of the `total` phase and its 10th–90th percentiles
#              (wall_s, cpu_s, blocked_s, run_queue_wait_s): the waiting columns' A/A difference,
#              and how far the lock moves them
#   lock-gate  GATES gates (bench --until-decided, --max-minutes) against the lock shim: expect
#              exit 2 with the waiting metric named (`blocked +…`)
#   aa-gate    GATES gates of the same executable on both sides: expect no exit 2
# One line per gate (exit status, seconds, load, the verdict's first line) and a summary per
# experiment; the runs stay in DIR.
# Usage: scripts/waiting-gate-experiment.sh --binary RELEASE_FILMSTRIP [--gates N] [--pairs N] [--load]
#        [--out DIR] [--threshold T] [--max-minutes M] EXPERIMENT... [-- BENCH OPTIONS replacing the configuration]
# e.g. the issue's 20 gates each, loaded:
#   scripts/waiting-gate-experiment.sh --binary .build/release/filmstrip --gates 20 --load spread lock-gate aa-gate
set -euo pipefail
cd "$(dirname "$0")/.."
binary="" gates=5 pairs=20 load=false out=results/local/waiting-experiment threshold="" max_minutes=3 experiments=()
while (($#)); do
    case $1 in
        --binary) binary=$2; shift 2 ;;
        --gates) gates=$2; shift 2 ;;
        --pairs) pairs=$2; shift 2 ;;
        --load) load=true; shift ;;
        --out) out=$2; shift 2 ;;
        --threshold) threshold=$2; shift 2 ;;
        --max-minutes) max_minutes=$2; shift 2 ;;
        --) shift; break ;;
        *) experiments+=("$1"); shift ;;
    esac
done
((${#experiments[@]})) || { echo "waiting-gate-experiment: name an experiment: spread, lock-gate, aa-gate" >&2; exit 64; }
matrix=("$@")
((${#matrix[@]})) || matrix=(--videos h264-180p-3s --counts 10 --extractors taskgroup --composers rowcopy --workers 2 --threads 1 --pipelines-only)
source scripts/experiment-setup.sh waiting-gate-experiment
cc -O2 -shared -fPIC -o "$out/lock.so" scripts/lock-shim.c -ldl -lpthread
{ echo '#!/bin/sh'
  echo "LD_PRELOAD=\"\${LD_PRELOAD:+\$LD_PRELOAD:}$out/lock.so\" exec $out/filmstrip \"\$@\""; } > "$out/lock.sh"
chmod +x "$out/lock.sh"
gate_threshold=()
[ -z "$threshold" ] || gate_threshold=(--threshold "$threshold")
# Without --load the machine carries whatever else runs on it: each line records the load average.
tag=$($load && echo loaded || echo noload)
pid_file=$out/background-load.pids

# The neighbours run for the whole script, not per gate: a gate sees a machine already loaded.
if $load; then
    scripts/background-load.sh --pid-file "$pid_file" start
    trap 'scripts/background-load.sh --pid-file "$pid_file" stop' EXIT
    sleep 20   # the one-minute load average climbs towards its level
fi

# Median and 10th/90th percentiles of the per-pair candidate / baseline ratios of each metric in
# FILE's `total` rows (pairs: the same repetition of both builds).
ratios() {
    python3 - "$1" << 'PYTHON'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["phase"] == "total" and r["status"] == "ok"]
def value(row, metric):
    if metric == "cpu_s":
        return float(row["cpu_user_s"]) + float(row["cpu_sys_s"])
    if metric == "cpu_blocked_s":
        blocked = value(row, "blocked_s")
        return value(row, "cpu_s") + blocked if blocked is not None else None
    if metric.endswith("*speed"):
        # The metric at the machine's full speed: times the share of runnable time spent on a CPU.
        base, on_cpu, wait = value(row, metric[:-6]), value(row, "on_cpu_s"), value(row, "run_queue_wait_s")
        return base * on_cpu / (on_cpu + wait) if base is not None and on_cpu else None
    return float(row[metric]) if row.get(metric) else None
def quantile(values, p):
    values = sorted(values); h = (len(values) - 1) * p; low = int(h)
    return values[low] + (values[min(low + 1, len(values) - 1)] - values[low]) * (h - low)
for metric in ["wall_s", "cpu_s", "blocked_s", "cpu_blocked_s", "run_queue_wait_s", "on_cpu_s", "wall_s*speed"]:
    sides = {}
    for row in rows:
        sides.setdefault(row["repetition"], {})[row["build"]] = value(row, metric)
    ratio = [s["candidate"] / s["baseline"] for s in sides.values()
             if s.get("candidate") is not None and s.get("baseline") and s["baseline"] > 0]
    base = [s["baseline"] for s in sides.values() if s.get("baseline") is not None]
    if not ratio:
        print(f"  {metric}: no pairs"); continue
    print(f"  {metric}: median ratio {quantile(ratio, 0.5):.3f} (10th–90th {quantile(ratio, 0.1):.3f}–{quantile(ratio, 0.9):.3f}), "
          f"baseline median {quantile(base, 0.5) * 1000:.2f} ms, {len(ratio)} pairs"
          + (f", runs over 5 ms: {sum(v > 0.005 for v in base + [s['candidate'] for s in sides.values() if s.get('candidate') is not None])}"
             if metric == "blocked_s" else ""))
PYTHON
}

# compare wraps its lines; a continuation is indented four spaces more. joined FILE: lines whole.
joined() {
    awk '{ match($0, /^ */); indent = RLENGTH }
         n && indent >= 4 && indent == last + 4 { line = line " " substr($0, indent + 1); next }
         { if (n) print line; line = $0; last = indent; n = 1 }
         END { if (n) print line }' "$1"
}

for experiment in "${experiments[@]}"; do
    case $experiment in
        spread)
            for candidate in filmstrip lock.sh; do
                name=$out/spread-$tag-${candidate%.sh}
                "$out/filmstrip" bench "${matrix[@]}" --repetitions "$pairs" --warmup 1 --no-until-decided \
                    --baseline-binary "$out/filmstrip" --candidate-binary "$out/$candidate" --out "$name" > "$name-bench.txt" 2>&1 \
                    || { echo "bench failed: $name-bench.txt" >&2; exit 99; }
                echo "spread ($tag, candidate ${candidate%.sh}, load after: $(cut -d' ' -f1-3 /proc/loadavg)):"
                ratios "$name-raw.csv"
            done ;;
        lock-gate | aa-gate)
            candidate=$([ "$experiment" = lock-gate ] && echo "$out/lock.sh" || echo "$out/filmstrip")
            declare -A count=()
            named=0 started=$SECONDS durations=""
            for ((index = 0; index < gates; index++)); do
                name=$out/$experiment-$tag-$index status=0 began=$SECONDS
                load_before=$(cut -d' ' -f1 /proc/loadavg)
                "$out/filmstrip" bench "${matrix[@]}" "${gate_threshold[@]}" --max-minutes "$max_minutes" \
                    --baseline-binary "$out/filmstrip" --candidate-binary "$candidate" --out "$name" > "$name-bench.txt" 2>&1 \
                    || { echo "bench failed: $name-bench.txt" >&2; exit 99; }
                "$out/filmstrip" compare "$name-raw.csv" > "$name-compare.txt" 2>&1 || status=$?
                took=$((SECONDS - began))
                durations+="${durations:+ }$took"
                count[$status]=$(( ${count[$status]:-0} + 1 ))
                joined "$name-compare.txt" | grep -q "^slower: .*blocked +" && named=$((named + 1))
                verdict=$(joined "$name-compare.txt" | grep -v "^filmstrip: warning" | grep -m1 -E "^(slower|undecided|failed):" || joined "$name-compare.txt" | grep -v "^filmstrip: warning" | head -1)
                echo "$experiment $tag $index: exit $status in $took s (load $load_before → $(cut -d' ' -f1 /proc/loadavg)): ${verdict:0:200}"
            done
            summary=""
            for status in "${!count[@]}"; do summary+=" exit $status: ${count[$status]};"; done
            echo "$experiment ($tag): $gates gates in $((SECONDS - started)) s;$summary blocked named in $named; seconds per gate: $durations"
            unset count ;;
        *) echo "waiting-gate-experiment: unknown experiment $experiment" >&2; exit 64 ;;
    esac
done
