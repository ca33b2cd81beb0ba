#!/usr/bin/env bash
# Longer fuzzing than CI's: mutated reference videos through `info` and `strip` (FuzzTests).
#   scripts/fuzz.sh [CASES [SEED]]     default 2000 cases, seed 1
#   FILMSTRIP_FUZZ_EXECUTABLE=/other/build/filmstrip scripts/fuzz.sh ...   the same mutants through another build
# Each case is one mutant (bit flips, truncation, chunks duplicated, removed or zeroed,
# 32-bit fields set to 0, 1, 2^31-1, 2^31, 2^32-1) run as two child processes with a
# 60 s limit. A failing case prints its seed and number and keeps its mutant file.
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-2000}"
seed="${2:-1}"
swift build --build-tests
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
FILMSTRIP_FUZZ_CASES="$cases" FILMSTRIP_FUZZ_SEED="$seed" FILMSTRIP_FUZZ_VERBOSE=1 \
    swift test --skip-build --filter 'FuzzTests/mutant' > "$log" 2>&1 || status=$?
grep -E '✘|recorded an issue' "$log" || true
echo "fuzz: $cases mutants, seed $seed: $(grep -c '^fuzz-reason' "$log" || true) failing runs; $(grep -c '^fuzz-info-accepted-strip-refused' "$log" || true) mutants info accepts and strip refuses"
echo "fuzz: the most common reasons (FFmpeg's text after the meaning):"
grep '^fuzz-reason' "$log" | sed -E 's/^fuzz-reason ([a-z]+) [A-Za-z]+: filmstrip: MUTANT: /\1: /' | sort | uniq -c | sort -rn | head -25
tail -1 "$log"
exit "$status"
