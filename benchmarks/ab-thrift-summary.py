"""Summarises benchmarks/ab-thrift.sh: per cell, the median over the runs of req/s and of CPU µs
per call for every variant, B/A of the CPU, and our client's req/s and CPU relative to TSocket's in
the same cell of the same runs. Usage: python3 ab-thrift-summary.py DIR VARIANT..."""
import glob
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
                protocol, payload, conns, client, server = parts[:5]
                rps, cpu = float(parts[5].replace(",", "")), float(parts[8])
                found[(protocol, payload, conns, server, client)].append((rps, cpu))
    return found


def median(values):
    return statistics.median(values) if values else float("nan")


def main():
    directory, variants = sys.argv[1], sys.argv[2:]
    runs = [cells(directory, i) for i in range(len(variants))]
    for i, v in enumerate(variants):
        print(f"variant {i}: {v}")
    head = "| protocol | payload | conns | server | client |"
    for i in range(len(variants)):
        head += f" {i} req/s | {i} CPU µs |" + (f" {i}/0 CPU |" if i else "")
    print("\n" + head)
    print("|---" * (head.count("|") - 1) + "|")
    keys = sorted(runs[0], key=lambda k: (k[0], int(k[1].split()[0]), int(k[2]), k[3], k[4]))
    for key in keys:
        row = "| " + " | ".join(key) + " |"
        base_cpu = median([c for _, c in runs[0][key]])
        for i, run in enumerate(runs):
            rps, cpu = median([r for r, _ in run[key]]), median([c for _, c in run[key]])
            row += f" {rps:,.0f} | {cpu:.1f} |" + (f" {cpu / base_cpu:.2f} |" if i else "")
        print(row)
    print("\nours / TSocket, medians over the cells of each run pair (req/s, CPU per call):")
    for i, run in enumerate(runs):
        speed, cpu = [], []
        for key, results in run.items():
            if key[4] != OURS:
                continue
            peer = run.get(key[:4] + (TSOCKET,))
            if not peer:
                continue
            for (r, c), (pr, pc) in zip(results, peer):
                speed.append(r / pr)
                cpu.append(c / pc)
        if speed:
            print(f"variant {i}: req/s {median(speed):.2f} ({min(speed):.2f}-{max(speed):.2f}, "
                  f">= 1.0 in {sum(s >= 1 for s in speed)} of {len(speed)}), "
                  f"CPU {median(cpu):.2f} ({min(cpu):.2f}-{max(cpu):.2f})")


main()
