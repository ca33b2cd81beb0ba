#!/usr/bin/env bash
# The main job: installs what is missing, builds in release, then runs the default job.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release
filmstrip=".build/release/filmstrip"
"$filmstrip" info --machine
"$filmstrip" fixtures --suite quick
"$filmstrip" info "$("$filmstrip" fixtures --suite quick --list | head -1 | cut -f3)"
