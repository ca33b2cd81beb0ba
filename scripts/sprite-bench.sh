#!/usr/bin/env bash
# Library throughput of `filmstrip sprite` against the ffmpeg CLI commands media servers run
# (README: "Players and media servers"). Builds in release, generates the reference library
# once (cached in fixtures-cache/), then runs `filmstrip sprite-bench` with any arguments
# given (e.g. --repetitions 5, --smoke). Runs go to results/local/sprite-bench.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product filmstrip
exec .build/release/filmstrip sprite-bench "$@"
