#!/usr/bin/env bash
# The CI gate of .github/workflows/bench-gate.yml and .gitlab-ci.yml, run locally: the same
# two gates, the same commands, the same exit statuses.
#
#   scripts/ci-gate.sh [--base REV | --baseline-binary PATH] [--binary PATH] [--out PREFIX]
#                      [--threshold 10%] [--max-minutes 20] [-- MORE BENCH OPTIONS]
#
#   --base REV              the baseline revision, built in release once (default origin/main)
#   --baseline-binary PATH  an executable as the baseline instead (no build)
#   --binary PATH           the candidate (default: .build/release/filmstrip, built here)
#   --out PREFIX            results prefix (default results/ci in the checkout): PREFIX-instructions-raw.csv, PREFIX-time-raw.csv
#                           (relative paths are the caller's: resolved before the script moves to the checkout)
#   after --                options for both bench runs (e.g. --videos ID --counts 10 --pipelines-only)
#
# Prints each gate's verdict and its top changes (functions demangled) on standard output; the
# builds' logs go to PREFIX-build.log and .build-baselines/COMMIT-build.log, each bench run's
# table to PREFIX-instructions-bench.txt and PREFIX-time-bench.txt, each gate's whole text to
# PREFIX-instructions.txt and PREFIX-time.txt. Writes the gates' markdown to $GITHUB_STEP_SUMMARY
# when set (as in the workflow), else to PREFIX-summary.md. Exit: 0 both gates pass (an undecided time gate warns), 2 a gate found it
# slower, more work, or a configuration that failed in the candidate only, 3 the instruction gate undecided, 1 a bench run failed or a gate's
# input could not be judged (compare's exit 1: never let through as a warning).
set -uo pipefail
# Paths given on the command line are the caller's, resolved before moving to the checkout; a
# bare name with no such file here is left to the PATH search.
absolute() {
  case $1 in
    /*) printf '%s' "$1" ;;
    */*) printf '%s/%s' "$PWD" "$1" ;;
    *) if [ -e "$1" ]; then printf '%s/%s' "$PWD" "$1"; else printf '%s' "$1"; fi ;;
  esac
}

base=origin/main baseline_binary="" binary="" out="" threshold=10% max_minutes=20
extra=()
while (($#)); do
  case "$1" in
    --base) base=$2; shift 2 ;;
    --baseline-binary) baseline_binary=$(absolute "$2"); shift 2 ;;
    --binary) binary=$(absolute "$2"); shift 2 ;;
    --out) out=$(absolute "$2"); shift 2 ;;
    --threshold) threshold=$2; shift 2 ;;
    --max-minutes) max_minutes=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    # The whole comment block at the top, however long it grows (a fixed line count cut it mid-sentence).
    -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 0 ;;
    *) echo "ci-gate: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
[ -z "${GITHUB_STEP_SUMMARY:-}" ] || GITHUB_STEP_SUMMARY=$(absolute "$GITHUB_STEP_SUMMARY")
cd "$(dirname "$0")/.." || exit 1
out=${out:-results/ci}

mkdir -p "$(dirname "$out")"
if [ -z "$binary" ]; then
  echo "ci-gate: setting up and building the candidate (log: $out-build.log)" >&2
  { ./scripts/setup.sh --gate && swift build -c release --product filmstrip; } > "$out-build.log" 2>&1 \
    || { tail -n 20 "$out-build.log" >&2; echo "ci-gate: setting up or building the candidate failed; the log: $out-build.log" >&2; exit 1; }
  binary=.build/release/filmstrip
fi
if [ -n "$baseline_binary" ]; then baseline=(--baseline-binary "$baseline_binary"); else baseline=(--baseline-rev "$base"); fi
summary=${GITHUB_STEP_SUMMARY:-$out-summary.md}
[ -n "${GITHUB_STEP_SUMMARY:-}" ] || : > "$summary"
# compare fits its text to COLUMNS; its output goes to a file here, so say the terminal's width.
if [ -z "${COLUMNS:-}" ]; then
  COLUMNS=100
  if [ -t 1 ]; then COLUMNS=$(tput cols 2>/dev/null || echo 100); fi
fi
export COLUMNS

# verdict NAME FILE: the gate's verdict and its top changes as compare wrote them (its first
# block: the outcome line, then the changed configurations, the biggest first), about 16 lines,
# never cutting an entry from its continuation lines (indented four spaces).
verdict() {
  echo "== $1 =="
  awk -v file="$2" 'NF == 0 { exit }
       NR > 16 && !/^    / { more++; next }
       !more { print }
       END { if (more) print "… " more " more line(s) in " file }' "$2"
}

echo "ci-gate: 1. instruction gate" >&2
# bench's own table and its hint to run compare go to a file: the script runs compare itself.
"$binary" bench --suite quick --measure instructions "${baseline[@]}" --out "$out-instructions" "${extra[@]}" > "$out-instructions-bench.txt" \
  || { cat "$out-instructions-bench.txt"; exit 1; }
"$binary" compare "$out-instructions-raw.csv" --format markdown --only-changed > "$out-instructions.md"
instructions=$?
{ echo "## Instruction gate (exit $instructions)"; cat "$out-instructions.md"; echo; } >> "$summary"
"$binary" compare "$out-instructions-raw.csv" --only-changed > "$out-instructions.txt" 2>/dev/null
verdict "instruction gate" "$out-instructions.txt"

echo "ci-gate: 2. time gate" >&2
"$binary" bench --suite quick "${baseline[@]}" --max-minutes "$max_minutes" --threshold "$threshold" \
  --out "$out-time" --fail-on-disagreement "${extra[@]}" > "$out-time-bench.txt" || { cat "$out-time-bench.txt"; exit 1; }
# No --threshold: compare takes the one bench decided on ($out-time-gate.json).
"$binary" compare "$out-time-raw.csv" --format markdown --only-changed > "$out-time.md"
time=$?
{ echo "## Time gate (exit $time)"; cat "$out-time.md"; echo; } >> "$summary"
"$binary" compare "$out-time-raw.csv" --only-changed > "$out-time.txt" 2>/dev/null
verdict "time gate" "$out-time.txt"
[ "$time" -ne 3 ] || echo "ci-gate: warning: time gate undecided: the machine was too noisy to tell within $threshold" >&2

"$binary" report "$out-instructions-raw.csv" "$out-time-raw.csv" -o "$out-report.html" >/dev/null 2>&1 \
  || echo "ci-gate: warning: no report drawn" >&2
echo "ci-gate: instruction gate exit $instructions, time gate exit $time; summary in $summary" >&2
if [ "$instructions" -eq 2 ] || [ "$time" -eq 2 ]; then exit 2; fi
if [ "$instructions" -ne 0 ]; then exit "$instructions"; fi
[ "$time" -eq 0 ] || [ "$time" -eq 3 ] || exit "$time"
exit 0
