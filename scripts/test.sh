#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test (Swift Testing).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
