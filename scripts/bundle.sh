#!/usr/bin/env bash
# Packs filmstrip for another x86-64 Linux (glibc 2.36 or later, nothing installed, no git):
#   OUT_DIR/filmstrip-COMMIT-linux-x86_64.tar.xz   (OUT_DIR defaults to dist/)
# holding bin/filmstrip (release build, stripped), bin/ffmpeg (the CLI the peers run),
# share/fonts/DejaVuSans.ttf (the contact sheets' font),
# lib/ with every shared library either of them loads except the C library's own (glibc and
# its loader must match the target's kernel interface and each other, so the target's are
# used), and run.sh, which puts lib/ first on the library path and bin/ on PATH.
#
# Environment (for tests): FILMSTRIP_BINARY bundles that binary instead of building release;
# BUNDLE_FFMPEG names the ffmpeg to bundle (default: the one on PATH); BUNDLE_XZ_OPTIONS sets
# xz's options (default -9e: smallest; tests use -0).
set -euo pipefail
cd "$(dirname "$0")/.."
out_dir=${1:-dist}
xz_options=${BUNDLE_XZ_OPTIONS:--9e}

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && ! git diff --quiet HEAD -- Sources Package.swift 2>/dev/null; then
    commit="$commit-dirty"
fi
binary=${FILMSTRIP_BINARY:-}
if [ -z "$binary" ]; then
    swift build -c release --product filmstrip >&2
    binary=.build/release/filmstrip
fi
ffmpeg=${BUNDLE_FFMPEG:-$(command -v ffmpeg || true)}
if [ -z "$ffmpeg" ]; then
    echo "bundle.sh: no ffmpeg on PATH (apt-get install ffmpeg, or set BUNDLE_FFMPEG)" >&2
    exit 1
fi

name="filmstrip-$commit-linux-x86_64"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
mkdir -p "$root/bin" "$root/lib"
cp -L "$binary" "$root/bin/filmstrip"
cp -L "$ffmpeg" "$root/bin/ffmpeg"
# The contact sheets' font: FreeType is carried in lib/ with the other libraries; its font is a
# file it opens, which run.sh names in FILMSTRIP_FONT.
font=${BUNDLE_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
if [ ! -f "$font" ]; then
    echo "bundle.sh: no font at $font (apt-get install fonts-dejavu-core, or set BUNDLE_FONT)" >&2
    exit 1
fi
mkdir -p "$root/share/fonts"
cp -L "$font" "$root/share/fonts/DejaVuSans.ttf"

# The C library's parts and the loader stay the target's own.
is_glibc() {
    case "$1" in
        ld-linux*|linux-vdso*|libc.so.*|libm.so.*|libmvec.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|libutil.so.*|libanl.so.*|libnsl.so.*) return 0 ;;
        *) return 1 ;;
    esac
}
# ldd lists every library a binary loads, transitively, as "soname => path".
for program in "$root/bin/filmstrip" "$root/bin/ffmpeg"; do
    ldd "$program" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }'
done | sort -u | while read -r soname path; do
    if ! is_glibc "$soname"; then cp -L "$path" "$root/lib/$soname"; fi
done
missing=$( (ldd "$root/bin/filmstrip"; ldd "$root/bin/ffmpeg") | grep "not found" || true)
if [ -n "$missing" ]; then
    echo "bundle.sh: libraries not found: $missing" >&2
    exit 1
fi
# Symbols and debug sections are most of an unstripped Swift binary; system libraries are
# usually stripped already.
strip --strip-unneeded "$root/bin/filmstrip" "$root/bin/ffmpeg" "$root/lib/"*

cat > "$root/run.sh" <<'RUN'
#!/bin/sh
# Runs the bundled filmstrip with the bundle's libraries first on the library path (children
# such as `filmstrip bench-run` and the bundled ffmpeg inherit it) and the bundle's bin/ on PATH.
here=$(cd "$(dirname "$0")" && pwd)
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PATH="$here/bin:$PATH"
FILMSTRIP_FONT="${FILMSTRIP_FONT:-$here/share/fonts/DejaVuSans.ttf}"
export LD_LIBRARY_PATH PATH FILMSTRIP_FONT
if [ "${1:-}" = ffmpeg ]; then shift; exec "$here/bin/ffmpeg" "$@"; fi
exec "$here/bin/filmstrip" "$@"
RUN
chmod +x "$root/run.sh"

newest_glibc=$(objdump -T "$root/bin/"* "$root/lib/"* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
cat > "$root/README.txt" <<INFO
filmstrip $commit for x86-64 Linux with glibc ${newest_glibc#GLIBC_} or later (nothing else to install).

  ./run.sh info --machine                               # the machine as benchmark rows will name it
  ./run.sh bench --suite full --peers --out results/full-peers-NAME
  ./run.sh ffmpeg -version                              # the bundled ffmpeg CLI (the peers use it)

Bring results/*.csv back and compare with a committed run:
  filmstrip compare results/full-peers-epyc-2c-r2-raw.csv results/full-peers-NAME-raw.csv --format markdown
INFO

mkdir -p "$out_dir"
tarball="$out_dir/$name.tar.xz"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner -cf - "$name" | xz $xz_options -T0 > "$tarball.tmp"
mv "$tarball.tmp" "$tarball"
echo "$tarball: $(du -h "$tarball" | cut -f1) ($(ls "$root/lib" | wc -l) libraries, needs glibc ${newest_glibc#GLIBC_})"
du -b "$root/bin/filmstrip" "$root/bin/ffmpeg" "$root/lib" | sort -rn | awk '{ printf "  %6.1f MB  %s\n", $1 / 1e6, $2 }' | sed "s|$stage/||" >&2
