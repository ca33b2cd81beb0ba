#!/usr/bin/env bash
# The main job: installs what is missing, builds in release, runs the standard benchmark
# (about 5 minutes on an idle 2-core machine; reference videos are generated first when
# missing), then draws its plots. Results go to results/local/ and plots/local/ (git-ignored),
# so running it never touches the committed baseline. Extra arguments go to `filmstrip bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# The tool only: `-c release` of every target would also build the test-support targets, which
# import their modules @testable (debug builds only).
swift build -c release --product filmstrip
filmstrip=".build/release/filmstrip"
"$filmstrip" info --machine
mkdir -p results/local plots/local
name="results/local/standard-$(date -u +%Y%m%dT%H%M%SZ)"
"$filmstrip" bench --suite standard --out "$name" "$@"
"$filmstrip" plot "$name-raw.csv" -o plots/local
echo "main job: CSV in $name-raw.csv and $name-summary.csv, plots in plots/local/"
