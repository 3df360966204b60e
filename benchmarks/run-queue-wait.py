#!/usr/bin/env python3
"""How long each group of a JVM's threads waited for a core, over a window.

Reads every thread's /proc/PID/task/TID/schedstat (time on a core, time waiting on a run queue,
times scheduled) at the start and the end of the window, names the threads with `jcmd PID
Thread.print` (a thread's comm is cut to 15 characters), groups them by name without a trailing
number, and prints per group: threads, CPU, run-queue wait, times scheduled and the wait per time
scheduled. Threads that started or ended inside the window are left out, so measure inside one
round of the harness. Used for the connection-reader tail in docs/benchmarks-thrift.md
("Ninth round"):

    python3 benchmarks/run-queue-wait.py PID SECONDS
"""
import collections
import os
import re
import subprocess
import sys
import time


def schedstat(pid):
    threads = {}
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            with open(f'/proc/{pid}/task/{tid}/schedstat') as f:
                threads[tid] = tuple(map(int, f.read().split()))
        except OSError:
            pass  # the thread ended meanwhile
    return threads


def thread_names(pid):
    dump = subprocess.run(['jcmd', pid, 'Thread.print'], capture_output=True, text=True).stdout
    names = {}
    for line in dump.splitlines():
        match = re.match(r'^"([^"]+)".*nid=(0x[0-9a-f]+|\d+)', line)
        if match:
            nid = match.group(2)
            names[str(int(nid, 16) if nid.startswith('0x') else int(nid))] = match.group(1)
    return names


def main():
    pid, window = sys.argv[1], float(sys.argv[2])
    before = schedstat(pid)
    time.sleep(window)
    after = schedstat(pid)
    names = thread_names(pid)
    groups = collections.defaultdict(lambda: [0, 0, 0, 0])
    for tid, (run, wait, scheduled) in after.items():
        if tid not in before or run == before[tid][0]:
            continue
        group = groups[re.sub(r'[-_#(]?\d+\)?$', '', names.get(tid, 'unnamed'))]
        group[0] += 1
        group[1] += run - before[tid][0]
        group[2] += wait - before[tid][1]
        group[3] += scheduled - before[tid][2]
    print('| threads | count | CPU s | run-queue wait s | times scheduled | wait per time scheduled µs |')
    print('|---|---:|---:|---:|---:|---:|')
    for name, (count, run, wait, scheduled) in sorted(groups.items(), key=lambda g: -g[1][1]):
        print(f'| {name} | {count} | {run / 1e9:.2f} | {wait / 1e9:.2f} | {scheduled} '
              f'| {wait / max(scheduled, 1) / 1e3:.0f} |')


if __name__ == '__main__':
    main()
