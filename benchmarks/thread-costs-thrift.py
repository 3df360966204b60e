#!/usr/bin/env python3
"""Where one Thrift call's cost goes, per group of threads: CPU (user and system) and system calls.

Usage (after building the benchmarks as docs/benchmarks-thrift.md says; Linux, perf installed):
    python3 benchmarks/thread-costs-thrift.py THREAD_POOL GRIZZLY_CONNECTION_QUEUE ...
Options: --connections=4 --payload=300 --protocol=binary (the defaults).

Each server named (a BenchServer name) runs one long ThriftBenchmark cell with the TSocket client,
in a JVM of its own, twice: once untraced, reading every thread's CPU from /proc over 4 s after
the JIT has had 12 s to settle, and once under `perf trace -s` for 3 s, counting system calls.
Threads are grouped by name without their number (the server's, `bench-caller` for the client,
the JIT's). Calls are counted as the TSocket callers' writes, one per call, so only that client:
in the untraced window from /proc's per-thread write count, in the traced one from the trace.
"""
import collections
import os
import re
import subprocess
import sys
import time

from proc_threads import group, thread_counters

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start(server, opts, seconds):
    with open(os.path.join(ROOT, "benchmarks/target/classpath.txt")) as f:
        cp = os.path.join(ROOT, "benchmarks/target/classes") + ":" + f.read().strip()
    return subprocess.Popen(
        ["java", "-cp", cp, "dev.grizzlyboot.benchmarks.thrift.ThriftBenchmark", f"--servers={server}",
         "--clients=TSOCKET", f"--connections={opts['connections']}", f"--payloads={opts['payload']}",
         f"--protocols={opts['protocol']}", "--rounds=1", f"--seconds={seconds}", "--warmup=1", "--jit-settle=0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def cpu_per_call(server, opts):
    process = start(server, opts, 18)
    time.sleep(13)
    before = thread_counters(process.pid)
    time.sleep(4)
    after = thread_counters(process.pid)
    process.communicate()
    calls = after[("bench-caller", "writes")] - before[("bench-caller", "writes")]
    cpu = {k: (after[k] - before[k]) / calls for k in after if k[1] in ("user", "sys")}
    return cpu, f"{calls / 4:,.0f}"


def syscalls_per_call(server, opts):
    process = start(server, opts, 12)
    time.sleep(7)
    trace = subprocess.run(["timeout", "-s", "INT", "3", "perf", "trace", "-s", "-p", str(process.pid)],
                           capture_output=True, text=True)
    process.communicate()
    counts = collections.defaultdict(collections.Counter)
    text = trace.stdout + trace.stderr
    for block in re.split(r"\n (?=\S.*\(\d+\), \d+ events)", text):
        head = re.match(r"(.*) \((\d+)\), \d+ events", block.strip())
        if not head:
            continue
        for name, calls in re.findall(r"^\s+(\w+)\s+(\d+)\s", block, re.M):
            counts[group(head.group(1))][name] += int(calls)
    calls = counts["bench-caller"]["write"]
    return {g: {name: n / calls for name, n in c.items() if n / calls >= 0.05} for g, c in counts.items()}


def main(args):
    opts = {"connections": "4", "payload": "300", "protocol": "binary"}
    servers = []
    for arg in args:
        if arg.startswith("--"):
            key, value = arg[2:].split("=", 1)
            opts[key] = value
        else:
            servers.append(arg)
    print(f"{opts['protocol']}, {opts['payload']} B, {opts['connections']} connections, TSocket client")
    print()
    print("| server | req/s (untraced window) | threads | user µs/call | system µs/call | system calls per call (traced) |")
    print("|---|---:|---|---:|---:|---|")
    for server in servers:
        cpu, rate = cpu_per_call(server, opts)
        syscalls = syscalls_per_call(server, opts)
        for name in sorted({g for g, _ in cpu}):
            user, system = cpu.get((name, "user"), 0), cpu.get((name, "sys"), 0)
            if user + system < 0.3:
                continue
            calls = ", ".join(f"{k} {v:.2f}" for k, v in sorted(syscalls.get(name, {}).items()))
            print(f"| {server} | {rate} | {name} | {user:.1f} | {system:.1f} | {calls} |")


if __name__ == "__main__":
    main(sys.argv[1:])
