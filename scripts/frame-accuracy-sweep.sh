#!/usr/bin/env bash
# The frame-accuracy matrices in full (CI runs 19 of its videos, FrameAccuracyMatrixTests, and
# 9 of UntimedContainerFrameTests):
# barcode reference videos at 23.976, 25, 30 and 60 fps, GOPs of 1, 12 and 250 frames and
# open 12-frame GOPs, 0 or 3 B-frames, in MP4, Matroska, MPEG-TS and MOV, each plain and with
# a 30 s timestamp gap at its middle frame (256 videos), plus the CI matrix's stream-copy
# cuts, a cut keeping its times, an offset and a shortening edit list. Every frame's display
# interval gets a slot; each of strip's extractors and each interactive strategy (two
# requests: every other slot, then all) must show the frame the ffmpeg CLI shows there,
# read from the thumbnail's pixels. Then the forms whose packets carry no display times
# (UntimedContainerFrameTests.full, 60 videos): raw .h264/.hevc/.m4v, AVI (made so and copied
# from raw streams) with closed and open GOPs, B-frames and B-pyramids, Xvid's packed
# B-frames, at 24, 25 and 30 fps; Matroska starts without block times; times rounded to 1/10
# and 1/20 s and a decode-order ramp after gaps of 10 and 45 s; every strip extractor at 1 to
# 4 workers, every interactive strategy, WebVTT and Jellyfin sprites, against the ffmpeg CLI.
# Prints the test's verdict per video; exit 0 only when every slot of every video is right.
# About 30-60 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
export FILMSTRIP_OPTIMIZED_DEBUG=1
export FILMSTRIP_FRAME_MATRIX=full
swift build --build-tests
status=0
swift test --skip-build --filter 'FrameAccuracyMatrixTests' "$@" || status=$?
swift test --skip-build --filter 'UntimedContainerFrameTests' "$@" || status=$?
exit $status
