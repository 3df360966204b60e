"""Summarises benchmarks/ab-memcached.sh: per cell, the medians over the runs of keys/s, of client
CPU per 100k keys and of memcached's CPU per 100k keys for build A and build B, and B/A. Each run
holds A, B and a second copy of A (A'), so the ratios are taken within each run first: the table
gives B/A's median over the runs and its range (lowest-highest) next to A'/A's, the noise of two
JVMs of the same build in the same runs. A last line pools every cell and run: the geometric mean
of B/A and of A'/A with two standard errors, which resolves a change that acts on most cells
several times finer than any one cell can; the cells of one run share its minutes, so read it
against the control's line rather than against 1.00. Usage: python3 ab-summary.py DIR (holding ab-run-N.csv)."""
import csv
import glob
import math
import os
import statistics
import sys
from collections import defaultdict

# The labels GrizzlyBootBench.build gives the builds ab-memcached.sh names a, b and a2.
BUILDS = {"grizzly-boot build a": "a", "grizzly-boot build b": "b", "grizzly-boot build a2": "a2"}
METRICS = ("keys_per_s", "cpu_s_per_100k", "server_cpu_s_per_100k")


def runs(directory):
    """Per cell, one {build: (keys/s, client CPU, memcached CPU)} per run that measured every build."""
    cells = defaultdict(list)
    for path in sorted(glob.glob(os.path.join(directory, "ab-run-*.csv"))):
        measured = defaultdict(dict)
        with open(path) as f:
            for row in csv.DictReader(f):
                build = BUILDS.get(row["client"])
                if build is not None:
                    cell = f'{row["kind"]} {row["op"]}/{row["size"]}/{row["threads"]}'
                    measured[cell][build] = tuple(float(row.get(m) or "nan") for m in METRICS)
        for cell, builds in measured.items():
            if len(builds) == len(BUILDS):
                cells[cell].append(builds)
    return cells


def over_a(measured, build):
    """keys/s of the build over A's in each run of one cell."""
    return [run[build][0] / run["a"][0] for run in measured]


def medians(measured, build):
    """The build's keys/s, client CPU and memcached CPU in one cell, each the median over the runs."""
    return [statistics.median(run[build][i] for run in measured) for i in range(len(METRICS))]


def within_runs(measured, build):
    """keys/s of the build over A's, run by run: median (lowest-highest)."""
    ratios = over_a(measured, build)
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def pooled(cells, build):
    """keys/s of the build over A's, every cell and run: geometric mean and two standard errors."""
    logs = [math.log(ratio) for measured in cells.values() for ratio in over_a(measured, build)]
    if len(logs) < 2:
        return "n/a"
    mean = statistics.fmean(logs)
    error = 2 * statistics.stdev(logs) / math.sqrt(len(logs))
    return f"{math.exp(mean):.3f} ({math.exp(mean - error):.3f}-{math.exp(mean + error):.3f})"


def main():
    cells = runs(sys.argv[1])
    print("| cell | runs | A keys/s | B keys/s | B/A, median (range) | A'/A, median (range) | A CPU s/100k "
          "| B CPU s/100k | B/A | A memcached CPU s/100k | B memcached CPU s/100k | B/A |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cell, measured in cells.items():
        a, b = medians(measured, "a"), medians(measured, "b")
        print(f"| {cell} | {len(measured)} | {a[0]:,.0f} | {b[0]:,.0f} | {within_runs(measured, 'b')} "
              f"| {within_runs(measured, 'a2')} | {a[1]:.3f} | {b[1]:.3f} | {b[1] / a[1]:.2f} "
              f"| {a[2]:.3f} | {b[2]:.3f} | {b[2] / a[2]:.2f} |")
    print()
    print(f"Every cell and run pooled, geometric mean (two standard errors): B/A {pooled(cells, 'b')}, "
          f"A'/A {pooled(cells, 'a2')}")


if __name__ == "__main__":
    main()
