#!/usr/bin/env bash
# Device run: GATES gates of the quick suite's time gate at the defaults at once, each pinned to
# two CPUs of its own (a 2-core slice per gate): half time-aa (same binary twice), half one-ab
# (+10 % CPU time in forward+rowcopy h264-180p-3s x50 only), as scripts/gate-experiments.sh does.
# Usage: gates.sh BUNDLE_DIR WORK_DIR SECONDS
set -uo pipefail
bundle=$1 work=$2 seconds=$3
export LD_LIBRARY_PATH=$bundle/lib FILMSTRIP_FIXTURES=$work/fixtures
fs=$bundle/bin/filmstrip
shim=$(cd "$(dirname "$0")" && pwd)/shim.so
mkdir -p "$work"
"$fs" fixtures --suite quick --dir "$work/fixtures" > "$work/fixtures.txt" 2>&1 || { echo fixtures failed; cat "$work/fixtures.txt"; exit 1; }
conditions="printf '%s' \"\$*\" | grep -Eq '\"frameCount\":50[,}]' && printf '%s' \"\$*\" | grep -Eq '\"extractor\":\"forward\"' && printf '%s' \"\$*\" | grep -Eq '\"composer\":\"rowcopy\"' && printf '%s' \"\$*\" | grep -Eq '\"videoID\":\"h264-180p-3s\"'"
gate() { # INDEX KIND CPUS
    local index=$1 kind=$2 cpus=$3 dir="$work/$2-$1" candidate
    mkdir -p "$dir"
    if [ "$kind" = one-ab ]; then
        { echo '#!/bin/sh'
          echo "if $conditions; then export FILMSTRIP_SLOWDOWN=0.10; echo x >> $dir/one-matched.log; fi"
          echo "LD_PRELOAD=\"\${LD_PRELOAD:+\$LD_PRELOAD:}$shim\" exec $fs \"\$@\""; } > "$dir/one.sh"
        chmod +x "$dir/one.sh"; candidate=$dir/one.sh
    else candidate=$fs; fi
    local started=$SECONDS status=0
    taskset -c "$cpus" "$fs" bench --suite quick --out "$dir/$kind-$index" --baseline-binary "$fs" --candidate-binary "$candidate" > "$dir/$kind-$index-bench.txt" 2>&1 || { echo "$kind-$index bench failed $?" >> "$work/summary.txt"; return; }
    taskset -c "$cpus" "$fs" compare "$dir/$kind-$index-raw.csv" > "$dir/$kind-$index-compare.txt" 2>&1 || status=$?
    echo "$kind-$index exit $status after $((SECONDS - started)) s matched $(wc -l < "$dir/one-matched.log" 2>/dev/null || echo -)" >> "$work/summary.txt"
}
gates=${GATES:-$(( $(nproc) / 2 ))} first=${FIRST_KIND:-0}
pids=()
for ((i = 0; i < gates; i++)); do
    kind=time-aa; (((i + first) % 2)) && kind=one-ab
    gate "$i" "$kind" "$(((2 * i) % $(nproc))),$(((2 * i + 1) % $(nproc)))" &
    pids+=($!)
done
( sleep "$seconds"; echo "gates still running at $seconds s were interrupted" >> "$work/summary.txt"; for p in /proc/[0-9]*; do tr '\0' ' ' < "$p/cmdline" 2> /dev/null | grep -q "bench --suite quick" && kill -INT "${p#/proc/}" 2> /dev/null; done ) &
watchdog=$!
wait "${pids[@]}"
kill "$watchdog" 2> /dev/null
