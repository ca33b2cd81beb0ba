#!/usr/bin/env bash
# Scale-out on real engines: `filmstrip sprite --shard I/N` over a small library, run by GNU
# parallel (local slots) and by a single-node Slurm cluster this script starts (munged,
# slurmctld and slurmd; an `sbatch --array` job), each checked against one unsharded run:
#   - every shard into a folder of its own: no file is made by two shards, and the union of
#     the shards' files is byte-identical to the unsharded run's (same names, same bytes);
#   - every shard into one shared folder, as a library run would: byte-identical to it too.
# Index conventions (filmstrip's shard I is 0-based, I in 0..N-1):
#   GNU parallel  {#} is the job's sequence number from 1: pass {= $_=$job->seq()-1 =}, or
#                 give the indexes as arguments (::: 0 1 ... N-1) and use {}.
#   Slurm         $SLURM_ARRAY_TASK_ID is whatever --array lists: submit --array=0-(N-1).
#   Kubernetes    $JOB_COMPLETION_INDEX of an Indexed Job is 0-based (docs/scale-out.md).
# Usage: scripts/scale-out-test.sh [--binary FILMSTRIP] [--shards N] [--keep DIR]
# Installs GNU parallel, slurm-wlm and munge when missing (apt-get, as root). About a minute.
set -euo pipefail
# Paths given on the command line are the caller's: resolve them before moving to the checkout.
absolute() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
binary="" shards=4 keep=""
while (($#)); do
    case $1 in
        --binary) binary=$(absolute "$2"); shift 2 ;;
        --shards) shards=$2; shift 2 ;;
        --keep) keep=$(absolute "$2"); shift 2 ;;
        *) echo "scale-out-test: unknown argument $1" >&2; exit 64 ;;
    esac
done
# A binary named but missing is an error: testing another one instead would pass for nothing.
if [ -n "$binary" ] && ! { [ -f "$binary" ] && [ -x "$binary" ]; }; then
    echo "scale-out-test: --binary $binary: not an executable file" >&2; exit 64
fi
cd "$(dirname "$0")/.."
missing=()
command -v parallel > /dev/null || missing+=(parallel)
command -v slurmctld > /dev/null || missing+=(slurm-wlm)
command -v munged > /dev/null || missing+=(munge)
if ((${#missing[@]})); then DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" > /dev/null; fi
if [ -z "$binary" ]; then swift build -c release --product filmstrip > /dev/null; binary=$PWD/.build/release/filmstrip; fi
work=$(mktemp -d /tmp/filmstrip-scale-out.XXXXXX)
started=()
# Stops the daemons this script started and waits for each to exit before removing the folder:
# slurmctld saves its state into $work as it shuts down, so removing the folder at once raced it
# ("Directory not empty", and set -e turned a passed run into exit 1 with the folder left).
cleanup() {
    local status=$? pids=() pid
    set +e
    for pidfile in "${started[@]}"; do
        pid=$(cat "$pidfile" 2> /dev/null) && [ -n "$pid" ] && kill "$pid" 2> /dev/null && pids+=("$pid")
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
        ! kill -0 "$pid" 2> /dev/null || kill -KILL "$pid"
    done
    if [ -n "$keep" ]; then mkdir -p "$keep" && cp -r "$work"/. "$keep"/; fi
    for _ in $(seq 20); do rm -rf "$work" 2> /dev/null && break; sleep 0.2; done
    [ ! -e "$work" ] || { echo "scale-out-test: could not remove $work" >&2; ((status)) || status=1; }
    exit "$status"
}
trap cleanup EXIT
fail() { echo "scale-out-test: $*" >&2; exit 1; }

# A small library: ten short H.264 and MPEG-4 videos in nested folders, one name with a space.
library=$work/library
mkdir -p "$library/a" "$library/b/c"
index=0
for name in one two "three four" a/five a/six a/seven b/eight b/c/nine b/c/ten b/c/eleven; do
    index=$((index + 1))
    codec=libx264; ((index % 3 == 0)) && codec=mpeg4
    ffmpeg -v error -f lavfi -i "testsrc2=size=160x90:rate=10:duration=$((2 + index % 3))" -vf "hue=h=$((index * 30))" \
        -c:v "$codec" -g 10 "$library/$name.mp4"
done
settings=(--recursive --format vtt,jellyfin,bif --interval 0.5 --tile 4x4 --width 96 --jobs 1)
"$binary" sprite "$library" -o "$work/reference" "${settings[@]}" > /dev/null

files() { (cd "$1" && find . -type f | sort); }
# The shards' folders hold disjoint sets of files whose union is the reference, byte for byte.
check_union() { # ENGINE FOLDER...
    local engine=$1; shift
    local duplicates
    duplicates=$(for folder in "$@"; do files "$folder"; done | sort | uniq -d)
    [ -z "$duplicates" ] || fail "$engine: files made by two shards: $duplicates"
    [ "$(for folder in "$@"; do files "$folder"; done | sort)" = "$(files "$work/reference")" ] \
        || fail "$engine: the shards' files differ from the unsharded run's"
    for folder in "$@"; do
        while read -r file; do cmp -s "$folder/$file" "$work/reference/$file" || fail "$engine: $file differs from the unsharded run's"; done < <(files "$folder")
    done
    echo "scale-out-test: $engine: $# shards, $(files "$work/reference" | wc -l) files, disjoint, byte-identical to the unsharded run"
}
check_same() { # ENGINE FOLDER
    diff -r "$2" "$work/reference" > /dev/null || fail "$1: the shared folder differs from the unsharded run"
    echo "scale-out-test: $1: $shards shards into one folder, byte-identical to the unsharded run"
}
last=$((shards - 1))

# GNU parallel, local slots: indexes as arguments, then from the 1-based job number.
# -q: the command's words reach the job as they are, so a binary or folder with a space works.
parallel -q --jobs 2 --halt now,fail=1 "$binary" sprite "$library" -o "$work/parallel/{}" "${settings[@]}" --shard "{}/$shards" \
    ::: $(seq 0 $last) > /dev/null
folders=(); for shard in $(seq 0 $last); do [ -d "$work/parallel/$shard" ] && folders+=("$work/parallel/$shard"); done
check_union "GNU parallel" "${folders[@]}"
parallel -q --jobs 2 --halt now,fail=1 "$binary" sprite "$library" -o "$work/parallel-shared" "${settings[@]}" \
    --shard "{= \$_ = \$job->seq() - 1 =}/$shards" ::: $(seq 1 $shards) > /dev/null
check_same "GNU parallel ({#} - 1)" "$work/parallel-shared"

# Slurm: one node (this machine), started here with a configuration of our own.
slurm=$work/slurm
mkdir -p "$slurm/state" "$slurm/spool" "$slurm/out"
if ! munge -n > /dev/null 2>&1; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge && chown munge:munge /run/munge /var/log/munge /var/lib/munge
    [ -f /etc/munge/munge.key ] || { mungekey --create && chown munge:munge /etc/munge/munge.key; }
    runuser -u munge -- munged --pid-file=/run/munge/munged.pid
    started+=(/run/munge/munged.pid)
    for _ in $(seq 50); do munge -n > /dev/null 2>&1 && break; sleep 0.1; done
fi
node=$(hostname -s)
cat > "$slurm/slurm.conf" <<EOF
ClusterName=filmstrip
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
StateSaveLocation=$slurm/state
SlurmdSpoolDir=$slurm/spool
SlurmctldPidFile=$slurm/slurmctld.pid
SlurmdPidFile=$slurm/slurmd.pid
SlurmctldLogFile=$slurm/slurmctld.log
SlurmdLogFile=$slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=filmstrip Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$slurm/slurm.conf
slurmctld -f "$SLURM_CONF" && started+=("$slurm/slurmctld.pid")
slurmd -f "$SLURM_CONF" && started+=("$slurm/slurmd.pid")
for _ in $(seq 100); do sinfo -h -o %T 2> /dev/null | grep -qx idle && break; sleep 0.3; done
sinfo -h -o %T | grep -qx idle || fail "Slurm: the node did not come up (logs: $slurm/*.log): $(tail -3 "$slurm/slurmd.log" 2> /dev/null)"
# One shard per array task, each into a folder of its own; then all into one folder.
# %q quotes each word for the job's shell (a binary path may hold spaces or quotes).
quoted_binary=$(printf '%q' "$binary") quoted_library=$(printf '%q' "$library")
sbatch --wait --quiet --array="0-$last" --output="$slurm/out/%A-%a.out" \
    --wrap "$quoted_binary sprite $quoted_library -o '$work/slurm-shards/'\$SLURM_ARRAY_TASK_ID ${settings[*]} --shard \$SLURM_ARRAY_TASK_ID/$shards" \
    || fail "Slurm: the array job failed: $(cat "$slurm"/out/*.out)"
folders=(); for shard in $(seq 0 $last); do [ -d "$work/slurm-shards/$shard" ] && folders+=("$work/slurm-shards/$shard"); done
check_union "Slurm sbatch --array" "${folders[@]}"
sbatch --wait --quiet --array="0-$last" --output="$slurm/out/%A-%a.out" \
    --wrap "$quoted_binary sprite $quoted_library -o '$work/slurm-shared' ${settings[*]} --shard \$SLURM_ARRAY_TASK_ID/$shards" \
    || fail "Slurm: the array job failed: $(cat "$slurm"/out/*.out)"
check_same "Slurm sbatch --array" "$work/slurm-shared"
echo "scale-out-test: passed"
