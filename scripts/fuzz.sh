#!/usr/bin/env bash
# Longer fuzzing than CI's: mutated reference videos through `info`, `strip`, `sprite`
# (vtt, jellyfin and bif in turn) and `thumbnails` (FuzzTests).
#   scripts/fuzz.sh [--ulimit-v KIB] [CASES [SEED]]     default 2000 cases, seed 1
#     --ulimit-v KIB: each run's address space (default 4 GiB): e.g. 500000 runs the mutants
#     short of memory, where running out must be an error naming the file, never a crash
#   FILMSTRIP_FUZZ_EXECUTABLE=/other/build/filmstrip scripts/fuzz.sh ...   the same mutants through another build
#   FILMSTRIP_FUZZ_LOG=FILE scripts/fuzz.sh ...   also keeps the whole log in FILE
# Two cases in three damage the bytes (bit flips, truncation, chunks duplicated, removed or
# zeroed, 32-bit fields set to 0, 1, 2^31-1, 2^31, 2^32-1); the third the timestamps, remuxed
# by the ffmpeg CLI's setts filter (gaps, jumps back, 33-bit MPEG-TS wraps, jumps of 10^6 to
# 10^9 s). Each run is a child process with a 60 s limit and 4 GiB of address space; its
# peak RSS must stay under 1 GB. A failing case prints its seed and number and keeps its mutant file.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--ulimit-v" ]; then
    export FILMSTRIP_FUZZ_ADDRESS_SPACE_KIB="$2"
    shift 2
fi
cases="${1:-2000}"
seed="${2:-1}"
# The same build as scripts/test.sh, so it is reused rather than rebuilt.
export FILMSTRIP_OPTIMIZED_DEBUG=${FILMSTRIP_OPTIMIZED_DEBUG:-1}
swift build --build-tests
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
FILMSTRIP_FUZZ_CASES="$cases" FILMSTRIP_FUZZ_SEED="$seed" FILMSTRIP_FUZZ_VERBOSE=1 \
    swift test --skip-build --filter 'FuzzTests/mutant' > "$log" 2>&1 || status=$?
grep -E '✘|recorded an issue|known issue' "$log" | grep -v '^fuzz-' || true
runs=$(grep -c '^fuzz-rss' "$log" || true)
peak=$(grep '^fuzz-rss' "$log" | sort -k2 -n | tail -1 || true)
echo "fuzz: $cases mutants, seed $seed, address space ${FILMSTRIP_FUZZ_ADDRESS_SPACE_KIB:-4194304} KiB: $runs runs, $(grep -c '^fuzz-unmade' "$log" || true) timestamp mutants ffmpeg could not write"
echo "fuzz: $(grep -c '^fuzz-failure crash' "$log" || true) crashes, $(grep -c '^fuzz-failure hang' "$log" || true) hangs, $(grep -c '^fuzz-failure rss' "$log" || true) runs at 1 GB RSS or more, $(grep -c '^fuzz-failure other' "$log" || true) other failures"
echo "fuzz: largest peak RSS: ${peak#fuzz-rss }"
echo "fuzz: exit statuses by command:"
grep '^fuzz-exit' "$log" | sed -E 's/ case .*//' | sort | uniq -c | sort -rn || true
echo "fuzz: failures by command and kind:"
grep '^fuzz-failure' "$log" | sed -E 's/ case [0-9]+ [^ ]+ / /' | sort | uniq -c | sort -rn | head -20 || true
echo "fuzz: $(grep -c '^fuzz-reason' "$log" || true) failing runs; $(grep -c '^fuzz-info-accepted-strip-refused' "$log" || true) mutants info accepts and strip refuses"
echo "fuzz: the most common reasons (FFmpeg's text after the meaning):"
grep '^fuzz-reason' "$log" | sed -E 's/^fuzz-reason ([a-z]+) [A-Za-z-]+: filmstrip: MUTANT: /\1: /' | sort | uniq -c | sort -rn | head -25 || true
cp "$log" "${FILMSTRIP_FUZZ_LOG:-/dev/null}" 2>/dev/null || true
tail -1 "$log"
exit "$status"
