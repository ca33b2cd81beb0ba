#!/usr/bin/env bash
# The main job: installs what is missing, builds in release, then runs the standard benchmark
# (about 5 minutes on an idle 2-core machine; reference videos are generated first when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release
filmstrip=".build/release/filmstrip"
"$filmstrip" info --machine
"$filmstrip" bench --suite standard "$@"
# --- plots of the results go here (filmstrip plot) ---
