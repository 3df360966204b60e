"""Summarises benchmarks/ab-memcached.sh: per cell, the median over the runs of keys/s, of client
CPU per 100k keys and (CSV files that have it) of memcached's CPU per 100k keys for A and B, and
B/A. Usage: python3 ab-summary.py DIR (holding ab-a-N.csv, ab-b-N.csv)."""
import csv
import glob
import os
import statistics
import sys
from collections import defaultdict


def rows(directory, variant):
    cells = defaultdict(list)
    for path in sorted(glob.glob(os.path.join(directory, f"ab-{variant}-*.csv"))):
        with open(path) as f:
            for row in csv.DictReader(f):
                if row["client"] != "grizzly-boot":
                    continue
                cell = f'{row["kind"]} {row["op"]}/{row["size"]}/{row["threads"]}'
                cells[cell].append((float(row["keys_per_s"]), float(row["cpu_s_per_100k"]),
                                    float(row.get("server_cpu_s_per_100k") or "nan")))
    return cells


def main():
    directory = sys.argv[1]
    a, b = rows(directory, "a"), rows(directory, "b")
    print("| cell | runs | A keys/s | B keys/s | B/A | A CPU s/100k | B CPU s/100k | B/A "
          "| A memcached CPU s/100k | B memcached CPU s/100k | B/A |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cell in a:
        if cell not in b:
            continue
        ka, ca, sa = (statistics.median(run[i] for run in a[cell]) for i in range(3))
        kb, cb, sb = (statistics.median(run[i] for run in b[cell]) for i in range(3))
        print(f"| {cell} | {len(a[cell])}+{len(b[cell])} | {ka:,.0f} | {kb:,.0f} | {kb / ka:.2f} | {ca:.3f} | {cb:.3f} "
              f"| {cb / ca:.2f} | {sa:.3f} | {sb:.3f} | {sb / sa:.2f} |")


if __name__ == "__main__":
    main()
