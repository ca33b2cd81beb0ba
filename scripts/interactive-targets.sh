#!/usr/bin/env bash
# The slider targets of issue 26 as ratios measured in one run (no absolute times are claimed):
#   1. first exact thumbnail of a 20-time request (`filmstrip thumbnails`, launch to its first
#      exact JSON line) against the ffmpeg CLI making one thumbnail alone (`-ss T -i V -frames:v 1`),
#      and the first against the last of the same request;
#   2. `--coarse-first`: launch until every slot has an image, against `strip --accuracy keyframe`
#      for the same N;
#   3. a drag of 20 superseding requests: p95 latency of the drag against a cold single request
#      for the same time, both in the same session (`bench --suite interactive`, rows of kind
#      interactive: the median over the sessions of each session's ratio);
#   4. RSS, threads and busy decoders after 1,000 superseded requests (the same run's `soak` rows).
# Each command is timed RUNS times, interleaved, and medians are compared.
# Usage: scripts/interactive-targets.sh VIDEO [RUNS] [FILMSTRIP]   (writes scripts/results/interactive-targets-*.txt,
# and the session rows beside it as *-sessions-raw.csv and -summary.csv)
set -euo pipefail
cd "$(dirname "$0")/.."
video=${1:?usage: $0 VIDEO [RUNS] [FILMSTRIP]}
runs=${2:-5}
tool=${3:-.build/release/filmstrip}
[ -x "$tool" ] || tool=.build/debug/filmstrip
mkdir -p scripts/results
out="scripts/results/interactive-targets-$(hostname -s)-$(date -u +%Y%m%dT%H%M%SZ).txt"
python3 - "$video" "$runs" "$tool" "${out%.txt}-sessions" <<'PY' | tee "$out"
import json, os, statistics, subprocess, sys, tempfile, time, shutil

video, runs, tool, sessions = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
duration = float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", video],
                                capture_output=True, text=True, check=True).stdout)
count = 20
# The request's slot times (centres of 20 equal parts); ffmpeg is asked for the middle one.
middle = duration * (2 * (count // 2) + 1) / (2 * count)

def timed(command):
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start

def thumbnails(extra, n=count, stop_at_row=False):
    """Launch to the first exact line, launch to the moment every slot has an image, launch to exit
    (with stop_at_row, the process is ended once every slot has an image: the rest is not measured)."""
    folder = tempfile.mkdtemp(prefix="interactive-targets-")
    start = time.monotonic()
    process = subprocess.Popen([tool, "thumbnails", video, "--count", str(n), "--height", "64", "--out-dir", folder] + extra,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first_exact = row = None
    seen = set()
    for line in process.stdout:
        now = time.monotonic() - start
        record = json.loads(line)
        seen.add(record["index"])
        if record["exact"] and first_exact is None:
            first_exact = now
        if len(seen) == n and row is None:
            row = now
            if stop_at_row:
                process.terminate()
                break
    process.wait()
    last = time.monotonic() - start
    shutil.rmtree(folder, ignore_errors=True)
    assert stop_at_row or process.returncode == 0
    return first_exact, row, last

samples = {key: [] for key in ["ffmpeg_one", "first_exact", "last_exact", "coarse_row", "keyframe_strip", "coarse_row_100", "keyframe_strip_100"]}
with tempfile.TemporaryDirectory() as scratch:
    for _ in range(runs):
        samples["ffmpeg_one"].append(timed(["ffmpeg", "-v", "error", "-y", "-ss", f"{middle:.3f}", "-i", video, "-frames:v", "1",
                                            os.path.join(scratch, "one.png")]))
        first, _, last = thumbnails([])
        samples["first_exact"].append(first)
        samples["last_exact"].append(last)
        for n, suffix in [(count, ""), (100, "_100")]:
            _, row, _ = thumbnails(["--coarse-first"], n, stop_at_row=True)
            samples["coarse_row" + suffix].append(row)
            samples["keyframe_strip" + suffix].append(timed([tool, "strip", video, "--count", str(n), "--height", "64",
                                                             "--accuracy", "keyframe", "-o", os.path.join(scratch, "k.png")]))

median = {key: statistics.median(values) for key, values in samples.items()}
print(f"video {video} ({duration:.1f} s), tool {tool}, {runs} interleaved runs, medians in seconds:")
for key, value in median.items():
    print(f"  {key:20s} {value:.3f}")
print(f"target 1a: first exact of 20 / ffmpeg one thumbnail = {median['first_exact'] / median['ffmpeg_one']:.2f} (target <= 1)")
print(f"target 1b: first exact / last of the same request    = {median['first_exact'] / median['last_exact']:.2f} (target <= 0.3)")
print(f"target 2:  coarse row / keyframe strip, N=20          = {median['coarse_row'] / median['keyframe_strip']:.2f} (target <= 1.2)")
print(f"target 2:  coarse row / keyframe strip, N=100         = {median['coarse_row_100'] / median['keyframe_strip_100']:.2f} (target <= 1.2)")

import csv
name = sessions
subprocess.run([tool, "bench", "--suite", "interactive", "--videos", video, "--repetitions", str(runs), "--quiet", "--out", name],
               check=True, stdout=subprocess.DEVNULL)
rows = [row for row in csv.DictReader(open(name + "-raw.csv")) if row["kind"] == "interactive" and row["status"] == "ok"]
configurations = sorted({(row["pipeline"], row["options"]) for row in rows if row["phase"] != "soak"})
for pipeline, options in configurations:
    def step(phase):
        return {row["repetition"]: row for row in rows if (row["pipeline"], row["options"], row["phase"]) == (pipeline, options, phase)}
    drag, cold = step("drag"), step("cold-single")
    ratios = [float(drag[r]["latency_p95_s"]) / float(cold[r]["latency_p95_s"]) for r in drag if r in cold]
    wasted = statistics.median(float(row["wasted_frames"]) for row in drag.values())
    print(f"target 3:  {pipeline} [{options}]: drag p95 / cold single, median of {len(ratios)} sessions = "
          f"{statistics.median(ratios):.2f} (target <= 1.5); wasted frames per drag (median) {wasted:.0f}")
for row in (row for row in rows if row["phase"] == "soak"):
    print(f"target 4:  soak of {row['options']}: RSS change {int(row['rss_growth_bytes']) / 1e6:+.2f} MB, threads left "
          f"{row['threads_left']}, busy decoders {row['busy_decoders']} (target: within 10 MB, none left)")
PY
echo "written: $out"
