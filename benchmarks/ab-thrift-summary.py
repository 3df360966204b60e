"""Summarises benchmarks/ab-thrift.sh: per cell, the median over the runs of req/s, of process CPU
µs per call and (with --caller-cpu=true) of the calling threads' CPU µs per call for every
variant, with each variant's caller (else process) CPU relative to variant 0's; then our client's
req/s and CPU relative to TSocket's in the same cell of the same run.
Usage: python3 ab-thrift-summary.py DIR VARIANT..."""
import glob
import math
import os
import statistics
import sys
from collections import defaultdict

OURS, TSOCKET = "grizzly-boot ThriftClient", "libthrift TSocket"


def cells(directory, index):
    found = defaultdict(list)
    for path in sorted(glob.glob(os.path.join(directory, f"ab-thrift-{index}-*.md"))):
        with open(path) as f:
            for line in f:
                parts = [p.strip() for p in line.strip().strip("|").split("|")]
                if len(parts) < 10 or not parts[5][:1].isdigit():
                    continue
                caller = float(parts[10]) if len(parts) > 10 and parts[10][:1].isdigit() else math.nan
                found[tuple(parts[:5])].append((float(parts[5].replace(",", "")), float(parts[8]), caller))
    return found


def median(values):
    return statistics.median(values) if values else math.nan


def cpu_of(result):
    """The caller CPU where measured, else the process CPU."""
    return result[1] if math.isnan(result[2]) else result[2]


def main():
    directory, variants = sys.argv[1], sys.argv[2:]
    runs = [cells(directory, i) for i in range(len(variants))]
    for i, v in enumerate(variants):
        print(f"variant {i}: {v}")
    head = "| protocol | payload | conns | client | server |"
    for i in range(len(variants)):
        head += f" {i} req/s | {i} CPU µs | {i} caller CPU µs |" + (f" {i}/0 CPU |" if i else "")
    print("\n" + head)
    print("|---" * (head.count("|") - 1) + "|")
    keys = sorted(runs[0], key=lambda k: (k[0], int(k[1].split()[0]), int(k[2]), k[4], k[3]))
    for key in keys:
        row = "| " + " | ".join(key) + " |"
        base = median([cpu_of(r) for r in runs[0][key]])
        for i, run in enumerate(runs):
            results = run.get(key, [])
            row += (f" {median([r[0] for r in results]):,.0f} | {median([r[1] for r in results]):.1f} |"
                    f" {median([r[2] for r in results]):.1f} |")
            if i:
                row += f" {median([cpu_of(r) for r in results]) / base:.2f} |"
        print(row)
    print("\nours / TSocket per cell and run (same server, same run): median (range) of req/s, process CPU,"
          " caller CPU")
    for i, run in enumerate(runs):
        speed, cpu, caller = [], [], []
        for key, results in run.items():
            if key[3] != OURS:
                continue
            peer = run.get(key[:3] + (TSOCKET, key[4]))
            for ours, theirs in zip(results, peer or []):
                speed.append(ours[0] / theirs[0])
                cpu.append(ours[1] / theirs[1])
                if not math.isnan(ours[2]):
                    caller.append(ours[2] / theirs[2])
        if speed:
            text = (f"variant {i}: req/s {median(speed):.2f} ({min(speed):.2f}-{max(speed):.2f}, "
                    f">= 1.0 in {sum(s >= 1 for s in speed)} of {len(speed)}), "
                    f"CPU {median(cpu):.2f} ({min(cpu):.2f}-{max(cpu):.2f})")
            if caller:
                text += f", caller CPU {median(caller):.2f} ({min(caller):.2f}-{max(caller):.2f})"
            print(text)


main()
