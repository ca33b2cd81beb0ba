#!/usr/bin/env bash
# Device run (issue 37): what the wall-time gate sees when every core works, on a lent
# 16-core machine that has no Swift or FFmpeg. filmstrip comes as a tarball of the optimised
# build (bin/filmstrip and the libraries it loads, from the Debian 12 machine), sent in parts
# because one call carries at most 64 MiB with the repository; the clip and the lock shim
# (scripts/lock-shim.c, built there) travel beside it. No gate here decides anything the
# 2-core experiments (scripts/gate-experiments.sh) have not: this measures the same
# experiments with all 16 cores working.
#
#   1. wall-spread: A/A, the same binary twice, taskgroup with 1, 2 and 16 workers on the clip
#      (--threads 1), PAIRS interleaved pairs, --no-until-decided;
#      compare's paired intervals show how wide wall time spreads against CPU time.
#   2. lock-cost: `strip --count 40 --extractor taskgroup --threads 1` with and without the
#      lock shim at 2 and 16 workers, interleaved; the wall and CPU ratios.
#   3. lock gates at 16 workers, at the defaults (--until-decided): lock-ab (the candidate's
#      decoders share one mutex) and lock-aa (the same binary twice), alternating until
#      SECONDS are spent; each bench gets --max-minutes so that it ends before the call does.
#
# Usage: [STAGES="wall-spread lock-cost gates"] device.sh TARBALL CLIP LOCK_SO OUT SECONDS
set -uo pipefail
absolute() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
tarball=$(absolute "$1") clip=$(absolute "$2") lock_so=$(absolute "$3") out=$(absolute "$4") budget=$5
started=$SECONDS
work=/tmp/wall16
mkdir -p "$work" "$out"
tar xJf "$tarball" -C "$work" || { echo "untar failed"; exit 1; }
export LD_LIBRARY_PATH=$work/fsonly/lib HOME=$work
fs=$work/fsonly/bin/filmstrip
{ echo "nproc: $(nproc)"; uname -a; grep -m1 "model name" /proc/cpuinfo; free -g | head -2; } > "$out/machine.txt"
"$fs" --version >> "$out/machine.txt" 2>&1
{ echo '#!/bin/sh'; echo "LD_PRELOAD=\"\${LD_PRELOAD:+\$LD_PRELOAD:}$lock_so\" exec $fs \"\$@\""; } > "$work/lock.sh"
chmod +x "$work/lock.sh"
cd "$work" || exit 1
left() { echo $((budget - (SECONDS - started))); }

stages=${STAGES:-wall-spread lock-cost gates}
# 1. wall-spread
if [[ " $stages " == *" wall-spread "* ]]; then
"$fs" bench --videos "$clip" --counts 40 --extractors taskgroup --composers rowcopy --workers 1,2,16 --threads 1 \
    --pipelines-only --repetitions "${PAIRS:-8}" --no-until-decided --baseline-binary "$fs" --candidate-binary "$fs" \
    --out "$work/wall-spread" > "$work/wall-spread-bench.txt" 2>&1 || { echo "wall-spread bench failed"; tail -5 "$work/wall-spread-bench.txt"; }
"$fs" compare "$work/wall-spread-raw.csv" --format json > "$out/wall-spread-compare.json" 2>&1
cp "$work/wall-spread-raw.csv" "$out/"
echo "wall-spread done at $((SECONDS - started)) s"
fi

# 2. lock-cost
one() { # WORKERS WRAPPER-OR-BINARY: prints "wall cpu" of one run, or "failed" (a failed run's time is no cost)
    local TIMEFORMAT='%R %U %S'
    local times
    rm -f "$work/lock-cost.png"
    times=$({ time "$2" strip "$clip" --count 40 --extractor taskgroup --workers "$1" --threads 1 -o "$work/lock-cost.png" > /dev/null 2>&1; } 2>&1)
    if [ -s "$work/lock-cost.png" ]; then echo "$times" | awk '{ print $1, $2 + $3 }'; else echo failed; fi
}
if [[ " $stages " == *" lock-cost "* ]]; then
for workers in 2 16; do
    for ((index = 0; index < ${LOCK_PAIRS:-8}; index++)); do
        if ((index % 2)); then locked=$(one "$workers" "$work/lock.sh"); plain=$(one "$workers" "$fs")
        else plain=$(one "$workers" "$fs"); locked=$(one "$workers" "$work/lock.sh"); fi
        if [[ "$plain $locked" == *failed* ]]; then echo "workers $workers: a run failed"; continue; fi
        echo "$workers $plain $locked" | awk '{ printf "workers %s wall %.4f cpu %.4f plain %s %s locked %s %s\n", $1, $4 / $2, $5 / $3, $2, $3, $4, $5 }'
    done
done > "$out/lock-cost.txt"
echo "lock-cost done at $((SECONDS - started)) s"
fi

# 3. lock gates at 16 workers, alternating ab and aa while time is left
lock_matrix=(--videos "$clip" --counts 40 --extractors taskgroup --composers rowcopy --workers 16 --threads 1 --pipelines-only)
index=0
while [[ " $stages " == *" gates "* ]] && (($(left) > 75)); do
    for kind in lock-ab lock-aa; do
        (($(left) > 75)) || break
        candidate=$fs; [ "$kind" = lock-ab ] && candidate=$work/lock.sh
        minutes=$(awk -v s="$(left)" 'BEGIN { m = (s - 30) / 60; if (m > 4) m = 4; printf "%.2f", m }')
        began=$SECONDS status=0
        "$fs" bench "${lock_matrix[@]}" --max-minutes "$minutes" --baseline-binary "$fs" --candidate-binary "$candidate" \
            --out "$work/$kind-$index" > "$work/$kind-$index-bench.txt" 2>&1 || echo "$kind-$index bench failed"
        "$fs" compare "$work/$kind-$index-raw.csv" > "$work/$kind-$index-compare.txt" 2>&1 || status=$?
        echo "$kind-$index exit $status after $((SECONDS - began)) s (max-minutes $minutes)" >> "$out/gates.txt"
        sed 's/^/    /' "$work/$kind-$index-compare.txt" >> "$out/gates.txt"
    done
    index=$((index + 1))
done
gate_files=$(cd "$work" && ls lock-a*-raw.csv lock-a*-bench.txt 2> /dev/null)
[ -z "$gate_files" ] || tar czf "$out/gates-raw.tgz" -C "$work" $gate_files
echo "all done at $((SECONDS - started)) s"
