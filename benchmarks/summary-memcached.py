#!/usr/bin/env python3
"""Ours (builder defaults) against the best peer, per cell, from the memcached benchmark's CSV.

Usage: python3 benchmarks/summary-memcached.py [benchmarks/target/memcached-results.csv]

Prints the Markdown table of docs/benchmarks.md "Summary" (one row per one-server and three-server
cell: our keys/s, the best peer and its keys/s, the ratio, our CPU per 100k keys, the lowest peer
CPU, the CPU ratio), then the counts against issue 14's targets (ratio >= 1.2, CPU ratio <= 0.8).
Tuned variants of ours are left out; peers are every other client in the file.
"""
import csv
import statistics
import sys

OURS = "grizzly-boot"
KINDS = {"cell": 1, "cluster": 3}


def main(path):
    cells = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["kind"] not in KINDS:
                continue
            key = (KINDS[row["kind"]], row["op"], int(row["size"]), int(row["threads"]))
            cells.setdefault(key, {})[row["client"]] = row
    print("| servers | op | value | threads | ours keys/s | best peer | peer keys/s | ratio "
          "| ours CPU s/100k | lowest peer CPU s/100k | CPU ratio |")
    print("|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    ops = ["get", "set", "getMulti", "setMulti"]
    ratios, cpu_ratios = [], []
    for key in sorted(cells, key=lambda k: (k[0], ops.index(k[1]) if k[1] in ops else 9, k[2], k[3])):
        clients = cells[key]
        ours = clients.get(OURS)
        peers = {name: row for name, row in clients.items() if not name.startswith(OURS)}
        if ours is None or not peers:
            continue
        best_name, best = max(peers.items(), key=lambda item: float(item[1]["keys_per_s"]))
        lowest_cpu = min(float(row["cpu_s_per_100k"]) for row in peers.values())
        ratio = float(ours["keys_per_s"]) / float(best["keys_per_s"])
        cpu_ratio = float(ours["cpu_s_per_100k"]) / lowest_cpu
        ratios.append(ratio)
        cpu_ratios.append(cpu_ratio)
        errors = "" if ours["errors"] in ("", "0") else f" ({ours['errors']} errors)"
        servers, op, size, threads = key
        print(f"| {servers} | {op} | {size} B | {threads} | {float(ours['keys_per_s']):,.0f}{errors} "
              f"| {best_name.replace(' (own JVM)', '')} | {float(best['keys_per_s']):,.0f} | {ratio:.2f} "
              f"| {float(ours['cpu_s_per_100k']):.2f} | {lowest_cpu:.2f} | {cpu_ratio:.2f} |")
    if not ratios:
        return
    print()
    print(f"cells: {len(ratios)}; ratio >= 1.0: {sum(r >= 1.0 for r in ratios)}; "
          f">= 1.2: {sum(r >= 1.2 for r in ratios)}; median {statistics.median(ratios):.2f}; "
          f"worst {min(ratios):.2f}; CPU ratio <= 0.8: {sum(c <= 0.8 for c in cpu_ratios)}; "
          f"<= 1.0: {sum(c <= 1.0 for c in cpu_ratios)}; median CPU ratio {statistics.median(cpu_ratios):.2f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/target/memcached-results.csv")
