#!/usr/bin/env bash
# CI-sized test of scripts/bundle.sh: bundles the debug filmstrip (a release build takes
# minutes here) with the real ffmpeg CLI at xz -0, unpacks it into an empty folder outside any
# git checkout, and checks that `info --machine`, a one-configuration bench and the bundled
# ffmpeg run with every library loaded from the bundle but the C library's own.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${FILMSTRIP_BINARY:-.build/debug/filmstrip}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-bundle: FAIL: $*" >&2; exit 1; }

FILMSTRIP_BINARY="$binary" BUNDLE_XZ_OPTIONS=-0 scripts/bundle.sh "$work/dist" >/dev/null 2>&1 || fail "bundle.sh failed"
tarball=$(ls "$work/dist/"filmstrip-*-linux-x86_64.tar.xz) || fail "no tarball named filmstrip-COMMIT-linux-x86_64.tar.xz"
mkdir "$work/unpacked"
tar -C "$work/unpacked" -xJf "$tarball"
bundle=$(ls -d "$work/unpacked/"filmstrip-*)
[ -x "$bundle/run.sh" ] && [ -x "$bundle/bin/filmstrip" ] && [ -x "$bundle/bin/ffmpeg" ] || fail "run.sh, bin/filmstrip or bin/ffmpeg missing"

glibc='/(ld-linux[^/]*|libc\.so\.[0-9]+|libm\.so\.[0-9]+|libmvec\.so\.[0-9]+|libpthread\.so\.[0-9]+|libdl\.so\.[0-9]+|librt\.so\.[0-9]+|libresolv\.so\.[0-9]+|libutil\.so\.[0-9]+)$'
# Every library either program resolves, with only the bundle on the library path.
for program in filmstrip ffmpeg; do
    outside=$(LD_LIBRARY_PATH="$bundle/lib" ldd "$bundle/bin/$program" | awk '$2 == "=>" { print $3 }' \
        | grep -v "^$bundle/lib/" | grep -Ev "$glibc" || true)
    [ -z "$outside" ] || fail "$program resolves outside the bundle: $outside"
done

# Run from an empty folder outside any checkout, with a bare environment; LD_DEBUG=libs lists
# every library each process (children included) actually loads.
run() { (cd "$work/empty" && env -i PATH=/usr/bin:/bin HOME="$work/empty" LD_DEBUG=libs LD_DEBUG_OUTPUT="$work/loads" "$bundle/run.sh" "$@"); }
mkdir "$work/empty"
run info --machine > "$work/machine.txt" || fail "info --machine failed"
grep -q cores "$work/machine.txt" || fail "info --machine printed no cores: $(cat "$work/machine.txt")"
run ffmpeg -hide_banner -version > /dev/null || fail "the bundled ffmpeg does not start"
run bench --suite quick --videos h264-180p-3s --counts 2 --extractors forward --composers rowcopy \
    --repetitions 1 --warmup 0 --fixtures-dir "$work/empty/fixtures" --out "$work/empty/results/tiny" > "$work/bench.txt" 2>&1 \
    || fail "bench failed: $(tail -5 "$work/bench.txt")"
raw="$work/empty/results/tiny-raw.csv"
[ -s "$raw" ] || fail "no results file"
grep -q ',forward+rowcopy,' "$raw" || fail "no forward+rowcopy rows"
grep -q ',unknown,' "$raw" || fail "rows outside a checkout should say git_commit unknown"
# Data rows only: the header names an `error` column too.
! tail -n +2 "$raw" | grep -q ',error,' || fail "a run failed: $(tail -n +2 "$raw" | grep ',error,' | head -1)"

# A contact sheet's text: FreeType from lib/, the font from share/fonts/ (run.sh names it).
[ -f "$bundle/share/fonts/DejaVuSans.ttf" ] || fail "share/fonts/DejaVuSans.ttf missing"
video=$(ls "$work/empty/fixtures/"h264-180p-3s*.mp4 | head -1)
run strip "$video" -o "$work/empty/sheet.png" --count 4 --columns 2 --timestamps --header > "$work/sheet.txt" 2>&1 \
    || fail "a contact sheet with text failed: $(tail -3 "$work/sheet.txt")"

loaded=$(cat "$work/loads".* | sed -n 's/.*calling init: //p' | sort -u)
[ -n "$loaded" ] || fail "LD_DEBUG listed no libraries"
outside=$(echo "$loaded" | grep -v "^$bundle/lib/" | grep -Ev "$glibc" || true)
[ -z "$outside" ] || fail "loaded from outside the bundle: $outside"
echo "test-bundle: ok ($(basename "$tarball"), $(du -h "$tarball" | cut -f1) at xz -0; $(echo "$loaded" | wc -l) libraries loaded, all from the bundle or the C library)"
