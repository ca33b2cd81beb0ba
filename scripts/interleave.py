#!/usr/bin/env python3
"""Whole-process A/B timing on a shared machine.

Runs command A and command B alternately (A B, then B A, ...) for ROUNDS rounds, each
timed with a monotonic clock around fork/exec and reaped with wait4 (its own CPU time and
peak RSS), and prints per command the median wall and CPU seconds and peak RSS, and the
median of the per-round ratios B / A: a round's two runs are back to back, so slow drift of
the machine's load cancels in the ratio.

    scripts/interleave.py ROUNDS 'COMMAND A' 'COMMAND B'

Commands are split like a shell would (shlex), run with output discarded; a failing run
stops the script with its status.
"""
import os, shlex, statistics, sys, time


def run(command):
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"failed ({status}): {shlex.join(command)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    rounds, a, b = int(sys.argv[1]), shlex.split(sys.argv[2]), shlex.split(sys.argv[3])
    runs = {"A": [], "B": []}
    for round in range(rounds):
        order = [("A", a), ("B", b)] if round % 2 == 0 else [("B", b), ("A", a)]
        for label, command in order:
            runs[label].append(run(command))
    for label in "AB":
        walls, cpus, rss = zip(*runs[label])
        print(f"{label}: wall median {statistics.median(walls):.4f} s, CPU median {statistics.median(cpus):.4f} s, "
              f"peak RSS median {statistics.median(rss):.1f} MB; walls {' '.join(f'{w:.3f}' for w in walls)}")
    ratios = [rb[0] / ra[0] for ra, rb in zip(runs["A"], runs["B"])]
    cpu_ratios = [rb[1] / ra[1] for ra, rb in zip(runs["A"], runs["B"]) if ra[1] > 0]
    print(f"B / A per round (wall): {' '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.3f}")
    print(f"B / A median (CPU): {statistics.median(cpu_ratios):.3f}")


main()
