#!/usr/bin/env bash
# Library throughput of `filmstrip sprite` against the ffmpeg CLI commands media servers run
# (README: "Players and media servers"). Builds in release, generates the reference library
# once (cached in $FILMSTRIP_FIXTURES, else ~/.cache/filmstrip/fixtures), then runs `filmstrip sprite-bench` (bench runs of kind
# sprite, `bench --suite sprite`) with any arguments given (e.g. --repetitions 5, --smoke).
# Rows go to results/local/sprite-bench-raw.csv and -summary.csv, which compare, trend,
# report and export read.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product filmstrip
exec .build/release/filmstrip sprite-bench "$@"
