#!/usr/bin/env bash
# Issue 37, item 2: does the instruction gate catch lost parallelism by the span (the busiest
# thread's instructions), and pass identical builds? Each round runs two instruction gates of the
# quick suite's task-group configurations (`bench --measure instructions`, then `compare`):
#   one-worker  the candidate is the same executable with every task group forced to one worker
#               (a wrapper rewrites the `bench-run` child's configuration: `workers` 1; the
#               product's code is untouched): expect exit 2, `span grew: … extract` named (gated)
#   identical   the same executable on both sides: expect exit 0
# Both sides start through the same kind of bash wrapper, so the shell's own instructions (counted
# in `process`) are the same on both. Usage:
#   scripts/span-experiment.sh --binary FILMSTRIP [--rounds N] [--out DIR] [-- BENCH OPTIONS]
# Prints each gate's exit status and span lines, then one summary line per experiment.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="" rounds=1 out=results/local/span-experiment
while (($#)); do
    case $1 in
        --binary) binary=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "span-experiment: unknown argument $1" >&2; exit 64 ;;
    esac
done
matrix=("$@")
source scripts/experiment-setup.sh span-experiment
cat > "$out/same.sh" <<EOF
#!/bin/bash
exec "$out/filmstrip" "\$@"
EOF
# bash's own substitution, no child process (whose instructions would count in the candidate's `process`).
cat > "$out/one-worker.sh" <<EOF
#!/bin/bash
shopt -s extglob
if [ "\$1" = bench-run ] && [ "\$2" = --config ] && [[ \$3 == *'"extractor":"taskgroup"'* ]]; then
    config=\$3
    if [[ \$config == *'"workers":'* ]]; then
        config=\${config//\"workers\":+([0-9])/\"workers\":1}
    else
        config=\${config/\"decoderThreads\":/\"workers\":1,\"decoderThreads\":}
    fi
    exec "$out/filmstrip" bench-run --config "\$config" "\${@:4}"
fi
exec "$out/filmstrip" "\$@"
EOF
chmod +x "$out/same.sh" "$out/one-worker.sh"
[ ${#matrix[@]} -gt 0 ] || matrix=(--suite quick --extractors taskgroup --pipelines-only)
declare -A counts
named=0 began=$(date +%s)
for round in $(seq 1 "$rounds"); do
    for experiment in one-worker identical; do
        candidate=$out/same.sh
        [ "$experiment" = one-worker ] && candidate=$out/one-worker.sh
        name=$out/$experiment-$round
        start=$(date +%s)
        "$binary" bench "${matrix[@]}" --measure instructions --baseline-binary "$out/same.sh" \
            --candidate-binary "$candidate" --out "$name" > "$name.bench.log" 2>&1
        status=0
        "$binary" compare "$name-raw.csv" > "$name.compare.txt" 2>&1 || status=$?
        echo "$experiment round $round: exit $status after $(( $(date +%s) - start )) s"
        grep -E '^(span grew|span shrank|slower|regressed|passed|undecided)' "$name.compare.txt" | head -12 || true
        counts[$experiment $status]=$(( ${counts[$experiment $status]:-0} + 1 ))
        # A gated span line (not "(not gated)") naming the extract phase.
        if [ "$experiment" = one-worker ] && grep -qE '^span grew: .* extract: span' "$name.compare.txt"; then named=$((named + 1)); fi
    done
done
for key in "${!counts[@]}"; do echo "summary: $key: ${counts[$key]} of $rounds"; done | sort
echo "summary: one-worker with a gated extract span named: $named of $rounds; $(( $(date +%s) - began )) s in all"
