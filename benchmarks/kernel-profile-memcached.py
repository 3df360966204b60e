#!/usr/bin/env python3
"""Where one memcached call's CPU goes in steady state, kernel included, for one client and cell.

Usage (after building the benchmarks as docs/benchmarks.md says; Linux, perf installed, as root):
    python3 benchmarks/kernel-profile-memcached.py CLIENT [--op=get --size=32 --threads=64]
CLIENT is a --clients name of MemcachedBenchmark that runs in its JVM (grizzly-boot, xmemcached,
spymemcached, folsom). Options also: --settle=20 (seconds before the first window: the JIT needs
10-15 s at this load) and --window=4.

Runs the harness for one long round of the cell against its own memcached, then, from --settle
seconds after the start:
  1. `perf record -g` on the client JVM for one window: CPU per call, split into kernel, JIT-compiled
     code and libc/JVM, per group of threads (their names without the number), and each group's
     share in `try_to_wake_up` (waking other threads);
  2. the next window: every thread's user and system CPU and context switches from /proc, and
     `perf stat` of memcached's reads, sendmsg calls and CPU.
Calls are counted by memcached's own `stats` (cmd_get + cmd_set) around each window. JFR cannot
see the kernel; on this machine most of a call's CPU is there (docs/benchmarks.md, "Eleventh round").
"""
import collections
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

from proc_threads import group, thread_counters

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE_HZ = 2000


def memcached_calls(port):
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"stats\r\n")
        reply = b""
        while not reply.endswith(b"END\r\n"):
            reply += s.recv(65536)
    stats = dict(re.findall(rb"STAT (\S+) (\S+)", reply))
    return int(stats[b"cmd_get"]) + int(stats[b"cmd_set"])


def listener_pid(port):
    out = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True).stdout
    return int(re.search(r"pid=(\d+)", out).group(1))


def start(client, opts, work):
    with open(os.path.join(ROOT, "benchmarks/target/classpath.txt")) as f:
        cp = os.path.join(ROOT, "benchmarks/target/classes") + ":" + f.read().strip()
    seconds = opts["settle"] + 2 * opts["window"] + 8
    log = os.path.join(work, "harness.md")
    with open(log, "w") as out:
        process = subprocess.Popen(
            ["java", "-XX:+PreserveFramePointer", "-cp", cp, "dev.grizzlyboot.benchmarks.memcached.MemcachedBenchmark",
             "--scenarios=single", f"--clients={client}", f"--sizes={opts['size']}", f"--threads={opts['threads']}",
             f"--filter=^{opts['op']}/", "--rounds=1", f"--seconds={seconds}", "--jit-settle=0",
             f"--csv={os.path.join(work, 'cell.csv')}"],
            stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        with open(log) as printed:
            found = re.search(r"127\.0\.0\.1:(\d+)", printed.read())
        if found:
            return process, int(found.group(1))
        time.sleep(0.2)
    process.kill()
    raise SystemExit("the harness printed no memcached address within 30 s")


def perf_report(data, *args):
    return subprocess.run(["perf", "report", "-i", data, "--stdio", "-g", "none", *args],
                          capture_output=True, text=True).stdout


def sampled_window(pid, port, window, work):
    data = os.path.join(work, "perf.data")
    before = memcached_calls(port)
    subprocess.run(["perf", "record", "-F", str(SAMPLE_HZ), "-g", "-e", "cpu-clock", "-p", str(pid), "-o", data,
                    "--", "sleep", str(window)], capture_output=True)
    calls = memcached_calls(port) - before
    comms = collections.Counter(line.strip() for line in subprocess.run(
        ["perf", "script", "-i", data, "-F", "comm"], capture_output=True, text=True).stdout.splitlines())
    total = sum(comms.values())
    micros = 1e6 / SAMPLE_HZ / calls
    dsos = {}
    for line in perf_report(data, "--no-children", "--sort", "dso").splitlines():
        match = re.match(r"\s+([\d.]+)%\s+(.+?)\s*$", line)
        if match:
            name = "kernel" if "kernel" in match.group(2) else "JIT code" if "JIT" in match.group(2) else "libc, JVM, other"
            dsos[name] = dsos.get(name, 0) + float(match.group(1)) / 100 * total * micros
    groups, waking = collections.Counter(), collections.Counter()
    for comm, n in comms.items():
        groups[group(comm)] += n
    for share, comm in re.findall(r"^\s+([\d.]+)%\s+[\d.]+%\s+(.+?)\s+\[k\] try_to_wake_up$",
                                  perf_report(data, "--children", "--sort", "comm,sym"), re.M):
        waking[group(comm)] += float(share) / 100 * total * micros
    rows = [(name, n * micros, waking[name]) for name, n in groups.most_common() if n * micros >= 0.2]
    return calls / window, total * micros, dsos, rows


def counted_window(pid, port, window):
    server = listener_pid(port)
    before, calls_before = thread_counters(pid), memcached_calls(port)
    stat = subprocess.run(["perf", "stat", "-x,", "-e",
                           "syscalls:sys_enter_read,syscalls:sys_enter_sendmsg,task-clock",
                           "-p", str(server), "--", "sleep", str(window)], capture_output=True, text=True).stderr
    after, calls = thread_counters(pid), memcached_calls(port) - calls_before
    counts = {line.split(",")[2]: float(line.split(",")[0]) for line in stat.splitlines()
              if line and not line.startswith("#") and line.split(",")[0].replace(".", "").isdigit()}
    threads = {}
    for (name, kind) in after:
        if kind == "writes":
            continue
        delta = after[(name, kind)] - before[(name, kind)]
        threads.setdefault(name, {})[kind] = delta / calls
    return calls / window, threads, calls / counts["syscalls:sys_enter_read"], \
        calls / counts["syscalls:sys_enter_sendmsg"], counts["task-clock"] * 1000 / calls


def main(args):
    opts = {"op": "get", "size": "32", "threads": "64", "settle": 20, "window": 4}
    client = None
    for arg in args:
        if arg.startswith("--"):
            key, value = arg[2:].split("=", 1)
            opts[key] = int(value) if key in ("settle", "window") else value
        else:
            client = arg
    if client is None:
        raise SystemExit(__doc__)
    with tempfile.TemporaryDirectory() as work:
        process, port = start(client, opts, work)
        try:
            time.sleep(opts["settle"])
            rate, cpu, dsos, rows = sampled_window(process.pid, port, opts["window"], work)
            rate2, threads, per_read, per_send, server_cpu = counted_window(process.pid, port, opts["window"])
        finally:
            process.kill()
            process.wait()
    print(f"{client}, {opts['op']} {opts['size']} B, {opts['threads']} threads, one server")
    print()
    print(f"Window 1 (perf record): {rate:,.0f} calls/s; client CPU per call {cpu:.1f} µs: "
          + ", ".join(f"{k} {v:.1f}" for k, v in sorted(dsos.items(), key=lambda kv: -kv[1])))
    print()
    print("| threads | CPU µs/call | of it waking threads (`try_to_wake_up`) µs/call |")
    print("|---|---:|---:|")
    for name, micros, wake in rows:
        print(f"| {name} | {micros:.1f} | {wake:.1f} |")
    print()
    print(f"Window 2 (/proc, perf stat of memcached): {rate2:,.0f} calls/s; memcached: {per_read:.1f} calls per read, "
          f"{per_send:.1f} per sendmsg, {server_cpu:.1f} µs CPU per call")
    print()
    print("| threads | user µs/call | system µs/call | involuntary switches/call |")
    print("|---|---:|---:|---:|")
    for name, kinds in sorted(threads.items(), key=lambda kv: -(kv[1].get("user", 0) + kv[1].get("sys", 0))):
        if kinds.get("user", 0) + kinds.get("sys", 0) >= 0.2:
            print(f"| {name} | {kinds['user']:.1f} | {kinds['sys']:.1f} | {kinds['involuntary']:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
