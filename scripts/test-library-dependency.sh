#!/usr/bin/env bash
# The library as other packages use it: clones this repository's committed HEAD into a temporary
# folder, tags the clone 0.1.0 in place of its own tags (nothing is pushed), makes a package outside the repository that
# depends on it by version (`from: "0.1.0"`) with the README's "Use the library" example as its
# main.swift, builds and runs it on a reference video, and checks the PNG it writes against the
# `filmstrip strip` tool's strip of the same video: same size, same pixels. SwiftPM refuses a
# versioned dependency whose product has unsafe build flags, so this also guards that.
# Skipped with FILMSTRIP_SKIP_LIBRARY_TEST=1; FILMSTRIP_BINARY is the tool to compare with.
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD
binary=${FILMSTRIP_BINARY:-.build/debug/filmstrip}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-library-dependency: FAIL: $*" >&2; exit 1; }

git clone --quiet "$repository" "$work/filmstrip"
# The repository's own release tags point at older commits: drop them in the clone so that
# `from: "0.1.0"` resolves to the HEAD under test.
git -C "$work/filmstrip" tag -l | xargs -r git -C "$work/filmstrip" tag -d > /dev/null
git -C "$work/filmstrip" tag 0.1.0

mkdir -p "$work/consumer/Sources/StripExample"
cat > "$work/consumer/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "StripExample",
    dependencies: [.package(url: "file://$work/filmstrip", from: "0.1.0")],
    targets: [.executableTarget(name: "StripExample", dependencies: [.product(name: "Filmstrip", package: "filmstrip")])]
)
MANIFEST
# The README's example, exactly: the Swift block between the two markers.
awk '/<!-- library-example:begin -->/ { inside = 1; next } /<!-- library-example:end -->/ { inside = 0 }
     inside && /^```swift/ { code = 1; next } inside && /^```/ { code = 0 } code' README.md \
    > "$work/consumer/Sources/StripExample/main.swift"
[ -s "$work/consumer/Sources/StripExample/main.swift" ] || fail "no example between the markers in README.md"

# Without FILMSTRIP_OPTIMIZED_DEBUG, as any dependent builds it: the product must carry no unsafe flags.
(cd "$work/consumer" && env -u FILMSTRIP_OPTIMIZED_DEBUG swift build --quiet) > "$work/build.log" 2>&1 || { tail -20 "$work/build.log" >&2; fail "the package depending on filmstrip 0.1.0 does not build"; }

# A reference video: the first of the quick suite (real H.264 encoded by FFmpeg; cached).
video=$("$binary" fixtures --suite quick | awk -F '\t' 'NR == 1 { print $4 }')
[ -f "$video" ] || fail "no reference video from filmstrip fixtures"
(cd "$work/consumer" && ./.build/debug/StripExample "$video") > "$work/run.log" 2>&1 || { cat "$work/run.log" >&2; fail "the example failed"; }
[ -f "$work/consumer/strip.png" ] || fail "the example wrote no strip.png"

# The tool makes the same strip: the two must have the same size and the same decoded pixels.
"$binary" strip "$video" -o "$work/tool.png" --count 8 --height 64 > /dev/null || fail "filmstrip strip failed"
decode() { ffmpeg -v error -i "$1" -f rawvideo -pix_fmt rgba - | sha256sum; }
size() { ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 "$1"; }
[ "$(size "$work/consumer/strip.png")" = "$(size "$work/tool.png")" ] || fail "sizes differ: $(size "$work/consumer/strip.png") against $(size "$work/tool.png")"
[ "$(decode "$work/consumer/strip.png")" = "$(decode "$work/tool.png")" ] || fail "the library's strip differs from the tool's"
grep -q "^$(size "$work/tool.png" | tr , x), first at" "$work/run.log" || fail "the example's in-memory strip has another size: $(head -1 "$work/run.log")"
echo "test-library-dependency: ok ($(size "$work/tool.png" | tr , x), $(basename "$video"))"
