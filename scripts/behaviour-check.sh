#!/usr/bin/env bash
# Shows that a refactoring changed no behaviour (issue 35): two builds of filmstrip, run on the
# same reference videos, must give
#   1. the same sorted (pipeline, options, video, N, size, accuracy, phase, kind, status, checksum)
#      list from `bench --suite quick --repetitions 1 --warmup 0` (timings differ; what was run and
#      which pixels it made must not), and
#   2. the same bytes for 8 outputs: strips in PNG, JPEG and raw RGBA, a contact sheet with
#      timestamps and a header, a keyframe strip, sprites for players (vtt) and Jellyfin, and
#      `thumbnails` at given times.
# Usage: scripts/behaviour-check.sh BEFORE_FILMSTRIP AFTER_FILMSTRIP [OUT_DIR]
# Exit 0 when everything agrees, 1 naming what differs. About 5 minutes on 2 cores.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,12p "$0" >&2; exit 2; }
before="$(realpath "$1")"; after="$(realpath "$2")"
out="${3:-$(mktemp -d /tmp/behaviour-check.XXXXXX)}"
mkdir -p "$out"
out="$(realpath "$out")"
for binary in "$before" "$after"; do [ -x "$binary" ] || { echo "behaviour-check: $binary is not an executable" >&2; exit 2; }; done
fixtures="$out/fixtures"
"$after" fixtures --suite quick --dir "$fixtures" > /dev/null
video="$(find "$fixtures" -name 'h264-360p-20s-*' | head -1)"
short="$(find "$fixtures" -name 'hevc-180p-2s-*' | head -1)"
[ -n "$video" ] && [ -n "$short" ] || { echo "behaviour-check: the quick suite's videos are missing in $fixtures" >&2; exit 2; }

failed=0
for side in before after; do
    binary="$before"; [ "$side" = after ] && binary="$after"
    dir="$out/$side"
    rm -rf "$dir"; mkdir -p "$dir"
    "$binary" bench --suite quick --repetitions 1 --warmup 0 --fixtures-dir "$fixtures" --out "$dir/bench" -q > "$dir/bench.log" 2>&1 \
        || { echo "behaviour-check: bench of $side failed (exit $?), see $dir/bench.log" >&2; failed=1; }
    raw="$dir/bench-raw.csv"
    python3 - "$raw" > "$dir/configurations.txt" <<'EOF'
import csv, sys
with open(sys.argv[1], newline="") as f:
    rows = [(r["pipeline"], r["options"], r["video_id"], r["frame_count"], r["thumb_width"] + "x" + r["thumb_height"],
             r["accuracy"], r["phase"], r.get("kind", ""), r["status"], r["checksum"]) for r in csv.DictReader(f)]
for row in sorted(rows):
    print("\t".join(row))
EOF
    "$binary" strip "$video" -o "$dir/1-strip.png" --count 12 > /dev/null
    "$binary" strip "$video" -o "$dir/2-strip.jpg" --count 7 --height 90 > /dev/null
    "$binary" strip "$short" -o "$dir/3-strip.rgba" --count 5 --extractor sequential > /dev/null
    "$binary" strip "$video" -o "$dir/4-sheet.png" --count 16 --columns 4 --timestamps --header --gap 4 > /dev/null
    "$binary" strip "$video" -o "$dir/5-keyframes.png" --count 9 --accuracy keyframe --composer fused > /dev/null
    "$binary" sprite "$video" -o "$dir/6-sprite-vtt" --format vtt --interval 2 > /dev/null
    "$binary" sprite "$video" -o "$dir/7-sprite-jellyfin" --format jellyfin --interval 2 > /dev/null
    "$binary" thumbnails "$video" --at 1,1.04,7.5,50% --out-dir "$dir/8-thumbnails" > /dev/null
done

lines=$(wc -l < "$out/before/configurations.txt")
if cmp -s "$out/before/configurations.txt" "$out/after/configurations.txt"; then
    echo "behaviour-check: quick suite: the same $lines (pipeline, options, video, N, size, accuracy, phase, kind, status, checksum) rows"
else
    echo "behaviour-check: quick suite: the rows differ:"
    diff "$out/before/configurations.txt" "$out/after/configurations.txt" | head -20
    failed=1
fi
outputs=0
for item in "$out"/before/[1-8]-*; do
    name="$(basename "$item")"
    if diff -r "$item" "$out/after/$name" > /dev/null; then
        outputs=$((outputs + 1))
    else
        echo "behaviour-check: $name differs between the builds"
        failed=1
    fi
done
echo "behaviour-check: $outputs of 8 outputs byte for byte the same (files in $out)"
exit "$failed"
