# Sourced by the experiment scripts (gate-experiments.sh, span-experiment.sh) after their
# options are read: checks $binary, makes $out absolute, and puts in it the stripped copy of the
# executable their wrappers start (valgrind 3.19 cannot read a Swift 6.3 build's DWARF 5).
# $1: the script's name, for its error line.
[ -x "$binary" ] || { echo "$1: --binary must name a filmstrip executable" >&2; exit 64; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
strip --strip-debug -o "$out/filmstrip" "$binary"
