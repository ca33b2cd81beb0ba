#!/usr/bin/env bash
# Scale-out on real engines (docs/scale-out.md): makes a small library of reference videos,
# runs `filmstrip sprite --shard I/N` over it with GNU parallel (local job slots) and as an
# `sbatch --array` job on a single-node Slurm cluster that this script starts (munged,
# slurmctld, slurmd, on their own ports and files under a scratch folder), and checks that the
# union of the shards is byte-identical to one unsharded run, with no file made twice.
#
#   scripts/scale-out-test.sh [FILMSTRIP_BINARY]    (default .build/release/filmstrip, else .build/debug/filmstrip)
#
# Needs Debian's `parallel`, and `slurm-wlm` + `munge` run as root for the Slurm part; an engine
# that is missing is skipped with a line saying so. Exit 0 when every engine run agrees.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=${1:-}
[ -n "$binary" ] || for candidate in .build/release/filmstrip .build/debug/filmstrip; do [ -x "$candidate" ] && { binary=$candidate; break; }; done
[ -x "${binary:-}" ] || { echo "scale-out-test: no filmstrip binary (build it, or give its path)" >&2; exit 1; }
binary=$(readlink -f "$binary")
shards=3
work=$(mktemp -d /tmp/filmstrip-scale-out.XXXXXX)
daemons=()
cleanup() {
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${daemons[@]}"; do for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "scale-out-test: FAIL: $*" >&2; exit 1; }

# A small library: the quick and formats suites' first videos, in two subfolders.
fixtures=${FILMSTRIP_FIXTURES:-$PWD/fixtures-cache}
mkdir -p "$work/library/drama" "$work/library/news"
i=0
while IFS=$'\t' read -r _ _ _ path; do
  folder=$([ $((i % 2)) -eq 0 ] && echo drama || echo news)
  cp "$path" "$work/library/$folder/"
  i=$((i + 1))
done < <("$binary" fixtures --suite quick --dir "$fixtures" > "$work/fixtures.tsv" && head -8 "$work/fixtures.tsv")
[ "$i" -ge 4 ] || fail "no reference videos"
sprite() { "$binary" sprite "$work/library" --recursive --interval 1 "$@"; }

# One unsharded run: the reference.
sprite -o "$work/whole" > /dev/null 2>&1 || fail "the unsharded run failed"

# Each engine writes every shard into its own folder, so a file made by two shards shows;
# the folders' union must then equal the unsharded run byte for byte.
check_union() {
  local engine=$1 root=$2
  local listed="$work/$engine-files.txt"
  (cd "$root" && find . -mindepth 2 -type f | cut -d/ -f3- | sort) > "$listed"
  local twice
  twice=$(uniq -d "$listed" | head -3)
  [ -z "$twice" ] || fail "$engine: made twice: $twice"
  mkdir -p "$work/$engine-union"
  for shard in "$root"/*/; do cp -a "$shard". "$work/$engine-union/"; done
  diff -r "$work/whole" "$work/$engine-union" > "$work/$engine-diff.txt" || { head -5 "$work/$engine-diff.txt" >&2; fail "$engine: the union of $shards shards differs from one run"; }
  echo "scale-out-test: $engine: $shards shards, $(wc -l < "$listed") files, union byte-identical to one run, none made twice"
}

# GNU parallel, local slots; its index comes from the argument list (0-based as listed).
if command -v parallel > /dev/null; then
  parallel --will-cite --jobs 2 --halt now,fail=1 \
    "\"$binary\" sprite \"$work/library\" --recursive --interval 1 -o \"$work/parallel/{}\" --shard {}/$shards > /dev/null" ::: $(seq 0 $((shards - 1))) \
    || fail "a GNU parallel job failed"
  check_union parallel "$work/parallel"
else
  echo "scale-out-test: skipped GNU parallel: not installed (apt-get install parallel)"
fi

# Slurm: a one-node cluster of our own, then an array job 0..N-1 ($SLURM_ARRAY_TASK_ID is 0-based as given to --array).
if command -v sbatch > /dev/null && command -v slurmctld > /dev/null && command -v munged > /dev/null && [ "$(id -u)" -eq 0 ]; then
  state="$work/slurm"
  mkdir -p "$state/ctld" "$state/d" "$state/munge"
  chmod 700 "$state/munge"
  dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$state/munge/munge.key"
  munged --force --socket="$state/munge/munge.sock" --key-file="$state/munge/munge.key" \
    --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log" --seed-file="$state/munge/seed" \
    || fail "munged did not start"
  daemons+=("$(cat "$state/munge/munged.pid")")
  node=$(hostname -s)
  cat > "$state/slurm.conf" <<CONF
ClusterName=filmstrip-test
SlurmctldHost=$node
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$state/slurm.conf"
  slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start ($state/slurmctld.log)"
  for _ in $(seq 50); do [ -s "$state/slurmctld.pid" ] && break; sleep 0.2; done
  daemons+=("$(cat "$state/slurmctld.pid")")
  slurmd -f "$SLURM_CONF" || { tail -5 "$state/slurmd.log" >&2; fail "slurmd did not start"; }
  for _ in $(seq 50); do [ -s "$state/slurmd.pid" ] && break; sleep 0.2; done
  daemons+=("$(cat "$state/slurmd.pid")")
  for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grep -qE '^idle' && break; sleep 0.3; done
  sinfo -h -o %T | grep -qE '^idle' || { tail -5 "$state/slurmctld.log" "$state/slurmd.log" >&2; fail "the Slurm node never became idle"; }
  sbatch --wait --array=0-$((shards - 1)) --output="$state/job-%a.out" --chdir="$work" \
    --wrap "\"$binary\" sprite \"$work/library\" --recursive --interval 1 -o \"$work/slurm-out/\$SLURM_ARRAY_TASK_ID\" --shard \$SLURM_ARRAY_TASK_ID/$shards" \
    > /dev/null || { cat "$state"/job-*.out >&2 2>/dev/null; fail "the Slurm array job failed"; }
  check_union slurm "$work/slurm-out"
else
  echo "scale-out-test: skipped Slurm: needs slurm-wlm and munge installed and root (apt-get install slurm-wlm munge)"
fi
