#!/usr/bin/env bash
# The frame-accuracy matrix in full (CI runs 19 of its videos, FrameAccuracyMatrixTests):
# barcode reference videos at 23.976, 25, 30 and 60 fps, GOPs of 1, 12 and 250 frames and
# open 12-frame GOPs, 0 or 3 B-frames, in MP4, Matroska, MPEG-TS and MOV, each plain and with
# a 30 s timestamp gap at its middle frame (256 videos), plus the CI matrix's stream-copy
# cuts, a cut keeping its times, an offset and a shortening edit list. Every frame's display
# interval gets a slot; each of strip's extractors and each interactive strategy (two
# requests: every other slot, then all) must show the frame the ffmpeg CLI shows there,
# read from the thumbnail's pixels. Prints the test's verdict per video; exit 0 only when
# every slot of every video is right. About 20-40 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
export FILMSTRIP_OPTIMIZED_DEBUG=1
export FILMSTRIP_FRAME_MATRIX=full
swift build --build-tests
swift test --skip-build --filter 'FrameAccuracyMatrixTests' "$@"
