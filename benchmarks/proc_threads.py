"""Per-thread counters of a process from /proc, summed by thread group.

A group is a thread's name without its trailing number (`bench-caller-12` and `bench-caller-3` are
`bench-caller`). Imported by kernel-profile-memcached.py and thread-costs-thrift.py; Linux only.
"""
import collections
import os
import re

TICK_MICROS = 1e6 / os.sysconf("SC_CLK_TCK")


def group(name):
    return re.sub(r"[-_ #]?\d+$", "", name.strip())


def thread_counters(pid):
    """User and system CPU in microseconds, write system calls and involuntary context switches,
    keyed by (group, "user" | "sys" | "writes" | "involuntary")."""
    counters = collections.Counter()
    for tid in os.listdir(f"/proc/{pid}/task"):
        base = f"/proc/{pid}/task/{tid}"
        try:
            name = open(f"{base}/comm").read()
            fields = open(f"{base}/stat").read().rsplit(")", 1)[1].split()
            io = open(f"{base}/io").read()
            status = open(f"{base}/status").read()
        except OSError:
            continue  # the thread ended meanwhile
        key = group(name)
        counters[(key, "user")] += int(fields[11]) * TICK_MICROS
        counters[(key, "sys")] += int(fields[12]) * TICK_MICROS
        counters[(key, "writes")] += int(re.search(r"syscw: (\d+)", io).group(1))
        counters[(key, "involuntary")] += int(re.search(r"nonvoluntary_ctxt_switches:\s+(\d+)", status).group(1))
    return counters
