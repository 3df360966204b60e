#!/usr/bin/env python3
"""Draws docs/zookeeper-scaling.svg from two CSVs that run-zookeeper.sh writes (one run of the old
protocol, one of the new): ZooKeeper requests and watch events per change against the number of
members, log-log. Plain SVG, no plotting library needed.

Usage: python3 benchmarks/plot-zookeeper.py before.csv after.csv [docs/zookeeper-scaling.svg]
"""
import csv
import math
import sys
from collections import defaultdict

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 170, 30, 50
SERIES = [  # (file index, column, label, colour, dashed)
    (0, "requests", "requests, before", "#c0392b", False),
    (0, "watch_events", "watch events, before", "#c0392b", True),
    (1, "requests", "requests, after", "#2471a3", False),
    (1, "watch_events", "watch events, after", "#2471a3", True),
]


def means(path):
    """members -> column -> mean over that member count's changes"""
    rows = defaultdict(lambda: defaultdict(list))
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            for column, value in row.items():
                rows[int(row["members"])][column].append(float(value))
    return {n: {c: sum(v) / len(v) for c, v in cols.items()} for n, cols in rows.items()}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runs = [means(sys.argv[1]), means(sys.argv[2])]
    target = sys.argv[3] if len(sys.argv) > 3 else "docs/zookeeper-scaling.svg"
    members = sorted({n for run in runs for n in run})
    values = [run[n][col] for i, col, *_ in SERIES for run in [runs[i]] for n in run if run[n][col] > 0]
    x0, x1 = math.log10(min(members)), math.log10(max(members))
    y0, y1 = math.floor(math.log10(min(values))), math.ceil(math.log10(max(values)))

    def x(n):
        return LEFT + (math.log10(n) - x0) / (x1 - x0) * (WIDTH - LEFT - RIGHT)

    def y(v):
        return HEIGHT - BOTTOM - (math.log10(v) - y0) / (y1 - y0) * (HEIGHT - TOP - BOTTOM)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{LEFT}" y="18" font-size="14">ZooKeeper work per server-list change (server-side count)</text>']
    for exponent in range(y0, y1 + 1):
        v = 10 ** exponent
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:,}</text>')
    for n in members:
        out.append(f'<line x1="{x(n):.1f}" x2="{x(n):.1f}" y1="{TOP}" y2="{HEIGHT - BOTTOM}" stroke="#eee"/>')
        out.append(f'<text x="{x(n):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{n}</text>')
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 12}" text-anchor="middle">members</text>')
    for row, (i, column, label, colour, dashed) in enumerate(SERIES):
        points = [(x(n), y(runs[i][n][column])) for n in sorted(runs[i]) if runs[i][n][column] > 0]
        dash = ' stroke-dasharray="5,4"' if dashed else ""
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        out.extend(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}"/>' for px, py in points)
        ly = TOP + 10 + row * 20
        out.append(f'<line x1="{WIDTH - RIGHT + 12}" x2="{WIDTH - RIGHT + 36}" y1="{ly}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{WIDTH - RIGHT + 42}" y="{ly + 4}">{label}</text>')
    out.append("</svg>")
    with open(target, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
