#!/usr/bin/env bash
# DocC for the `Filmstrip` library, kept whole: fails, listing FILE:LINE for each, when a public
# symbol declared in Sources/Filmstrip has no summary (a `///` comment whose first line is not
# only a `- Parameter` list, and its own rather than one inherited from a protocol of another
# module); when the catalog (Sources/Filmstrip/Filmstrip.docc) does not build without warnings
# (unresolved links, undocumented or unknown parameters); or when a Swift example in the
# catalog does not type-check against the module.
#
# Members the compiler synthesises (Equatable's `!=`, Codable's `init(from:)`, RawRepresentable's
# `hashValue`, ...) have no source to comment; DocC gives each the summary "Inherited from
# PROTOCOL.MEMBER." and they are only counted here.
#
# Reuses the debug build of scripts/test.sh (same FILMSTRIP_OPTIMIZED_DEBUG) and the toolchain's
# own swift-symbolgraph-extract and docc, so it needs no plugin and no network.
# `swift package --disable-sandbox generate-documentation --target Filmstrip` (swift-docc-plugin)
# builds the same documentation as an archive for hosting.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:/opt/swift/bin:$PATH"
export FILMSTRIP_OPTIMIZED_DEBUG=${FILMSTRIP_OPTIMIZED_DEBUG:-1}
fail() { echo "check-doc-coverage: FAIL: $*" >&2; exit 1; }
failures=0

swift build --target Filmstrip > /dev/null 2>&1 || { swift build --target Filmstrip 2>&1 | tail -20 >&2; fail "the Filmstrip target does not build"; }
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
mkdir "$work/symbols"
trap 'rm -rf "$work"' EXIT

# The C modules the library imports: the system libraries' maps (FFmpeg, zlib, FreeType, malloc.h)
# and the one SwiftPM writes for CKernels; FreeType's headers sit in their own folder (pkg-config says where).
module_flags=(-I "$bin/Modules" -Xcc "-fmodule-map-file=$bin/CKernels.build/module.modulemap"
              -Xcc -fmodule-map-file=Sources/CFFmpeg/module.modulemap -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap
              -Xcc -fmodule-map-file=Sources/CFreeType/module.modulemap
              -Xcc -fmodule-map-file=Sources/CMalloc/module.modulemap)
for include in $(pkg-config --cflags-only-I freetype2); do module_flags+=(-Xcc "$include"); done
swift-symbolgraph-extract -module-name Filmstrip -target "$(uname -m)-unknown-linux-gnu" "${module_flags[@]}" \
    -minimum-access-level public -output-dir "$work/symbols" > "$work/extract.log" 2>&1 \
    || { cat "$work/extract.log" >&2; fail "swift-symbolgraph-extract failed"; }

python3 - "$work/symbols" "$PWD" <<'PY' || failures=$((failures + 1))
import glob, json, os, sys
folder, root = sys.argv[1], sys.argv[2]
declared, synthesized, missing = 0, 0, []
for graph in sorted(glob.glob(os.path.join(folder, "*.symbols.json"))):
    for symbol in json.load(open(graph))["symbols"]:
        location = symbol.get("location")
        if location is None:  # synthesised by the compiler or inherited from another module
            synthesized += 1
            continue
        declared += 1
        comment = symbol.get("docComment")
        own = comment is not None and comment.get("module", "Filmstrip") == "Filmstrip"
        lines = [line["text"].strip() for line in comment["lines"]] if own else []
        first = next((line for line in lines if line), "")
        if first and not first.startswith("- "):
            continue
        why = "only a parameter list" if own and first else ("inherits another module's comment" if comment else "no /// comment")
        path = os.path.relpath(location["uri"].removeprefix("file://"), root)
        missing.append(f"{path}:{location['position']['line'] + 1}: {'.'.join(symbol['pathComponents'])} "
                       f"({symbol['kind']['displayName'].lower()}): {why}")
for line in sorted(missing):
    print(line, file=sys.stderr)
print(f"check-doc-coverage: {declared - len(missing)} of {declared} public symbols declared in Filmstrip have a summary; "
      f"{synthesized} synthesised members get DocC's 'Inherited from' summary")
sys.exit(1 if missing else 0)
PY

docc convert Sources/Filmstrip/Filmstrip.docc --additional-symbol-graph-dir "$work/symbols" --output-path "$work/archive" \
    --fallback-display-name Filmstrip --fallback-bundle-identifier Filmstrip --warnings-as-errors > "$work/docc.log" 2>&1 \
    || { grep -v '^$' "$work/docc.log" | head -60 >&2; echo "check-doc-coverage: the DocC catalog does not build without warnings" >&2
         failures=$((failures + 1)); }

# Each ```swift block of the catalog, type-checked as a program of its own.
examples=0
for article in Sources/Filmstrip/Filmstrip.docc/*.md; do
    awk -v prefix="$work/example-$(basename "$article" .md)-" '
        /^```swift/ { file = prefix (++n) ".swift"; code = 1; print "import Filmstrip" > file; next }
        /^```/ { code = 0 } code { print > file }' "$article"
done
for example in "$work"/example-*.swift; do
    [ -e "$example" ] || continue
    examples=$((examples + 1))
    swiftc -typecheck -swift-version 6 "${module_flags[@]}" "$example" > "$work/example.log" 2>&1 \
        || { cat "$work/example.log" >&2; echo "check-doc-coverage: the example $(basename "$example") of the DocC catalog does not compile" >&2
             failures=$((failures + 1)); }
done
((failures == 0)) || fail "$failures of the checks above failed"
echo "check-doc-coverage: the catalog builds without warnings; its $examples Swift examples type-check"
