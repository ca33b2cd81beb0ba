#!/usr/bin/env bash
# A reproducible busy machine for the gate's experiments (issue 47): neighbours loading the cores
# the way other jobs load a shared CI runner, at ordinary priority. No real-time scheduling, no
# kernel or autogroup settings touched, nothing that needs root.
#   scripts/background-load.sh start      start the neighbours in the background (pids in the pid file)
#   scripts/background-load.sh stop       end them (each by its pid) and wait for them
#   scripts/background-load.sh status     which neighbours run, and the load average
#   scripts/background-load.sh run -- COMMAND [ARGUMENT]...
#                                          COMMAND under the load; the neighbours end when it does
#                                          (also on an error or Ctrl-C); exits with its status
# Options before the action: --cpu N (busy loops, default 3), --memory N (memory-bandwidth
# copies of two 64 MiB buffers, default 2), --spawners N (loops of short processes: a 256 KiB
# checksum and a shell each time, default 1), --pid-file FILE (default
# ${TMPDIR:-/tmp}/filmstrip-background-load.pids).
# The default six neighbours keep about six tasks runnable on a 2-core machine: a load average
# of about 6 (measured in docs/gate.md, "Waiting"). They share the caller's session, so the
# kernel's autogroup shares the cores among them and the caller's processes per task, as on a
# runner whose jobs share one session; neighbours started with setsid would form a group of their
# own and take half the cores however many there were.
set -euo pipefail

cpu=3 memory=2 spawners=1
pid_file=${TMPDIR:-/tmp}/filmstrip-background-load.pids
while (($#)); do
    case $1 in
        --cpu) cpu=$2; shift 2 ;;
        --memory) memory=$2; shift 2 ;;
        --spawners) spawners=$2; shift 2 ;;
        --pid-file) pid_file=$2; shift 2 ;;
        *) break ;;
    esac
done
action=${1:-}
[ -n "$action" ] || { echo "usage: background-load.sh [--cpu N] [--memory N] [--spawners N] [--pid-file FILE] start|stop|status|run -- COMMAND..." >&2; exit 64; }
shift

start() {
    if [ -s "$pid_file" ]; then echo "background-load: already running (pids in $pid_file); stop it first" >&2; exit 1; fi
    command -v python3 > /dev/null || { echo "background-load: needs python3 (the memory neighbours)" >&2; exit 1; }
    : > "$pid_file"
    local index blob
    for ((index = 0; index < cpu; index++)); do
        # A busy loop in the shell itself: all CPU, no memory traffic to speak of.
        bash -c 'while :; do :; done' &
        echo "$! cpu" >> "$pid_file"
    done
    for ((index = 0; index < memory; index++)); do
        # Copies between two 64 MiB buffers (memmove, far beyond the caches): memory bandwidth.
        python3 -c 'a = bytearray(b"\x5a") * (64 << 20); b = bytearray(64 << 20)
while True: b[:] = a' &
        echo "$! memory" >> "$pid_file"
    done
    blob=$(mktemp "${TMPDIR:-/tmp}/filmstrip-load-blob.XXXXXX")
    head -c $((256 << 10)) /dev/urandom > "$blob"
    for ((index = 0; index < spawners; index++)); do
        # Short processes one after another, as a build or a test runner spawns them: each
        # checksum is a fork, an exec and a few ms of work.
        bash -c 'trap "exit 0" TERM; while :; do sha256sum "$1" > /dev/null; sh -c :; done' load "$blob" &
        echo "$! spawner $blob" >> "$pid_file"
    done
    echo "background-load: $cpu cpu, $memory memory, $spawners spawner neighbour(s) started (pids in $pid_file)" >&2
}

stop() {
    [ -s "$pid_file" ] || { rm -f "$pid_file"; return 0; }
    local pid kind rest blobs=()
    while read -r pid kind rest; do
        kill "$pid" 2> /dev/null || true
        [ "$kind" != spawner ] || blobs+=("$rest")
    done < "$pid_file"
    while read -r pid _; do
        while kill -0 "$pid" 2> /dev/null; do sleep 0.05; done
    done < "$pid_file"
    ((${#blobs[@]} == 0)) || rm -f "${blobs[@]}"
    rm -f "$pid_file"
    echo "background-load: stopped (load now: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
}

case $action in
    start) start ;;
    stop) stop ;;
    status)
        if [ -s "$pid_file" ]; then
            echo "running: $(awk '{ print $2 }' "$pid_file" | sort | uniq -c | awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }')"
        else
            echo "not running"
        fi
        echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" ;;
    run)
        [ "${1:-}" = -- ] && shift
        (($#)) || { echo "background-load: run needs a command after --" >&2; exit 64; }
        start
        trap stop EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
        status=0
        "$@" || status=$?
        exit "$status" ;;
    *) echo "background-load: unknown action $action (start, stop, status, run)" >&2; exit 64 ;;
esac
