#!/usr/bin/env python3
"""Draws docs/memcached-benchmark.png (one server) from the CSV that run-memcached.sh writes.

Usage: python3 benchmarks/plot-memcached.py [CSV] [PNG] [cell|cluster]
Defaults: benchmarks/target/memcached-results.csv, docs/memcached-benchmark.png, cell. With
``cluster`` it draws the 3-server rows instead, and the CPU-per-key ratio where the seed workload
would be (the cluster scenario has none). Needs matplotlib (pip install matplotlib).
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

source = sys.argv[1] if len(sys.argv) > 1 else "benchmarks/target/memcached-results.csv"
target = sys.argv[2] if len(sys.argv) > 2 else "docs/memcached-benchmark.png"
kind = sys.argv[3] if len(sys.argv) > 3 else "cell"

cells = defaultdict(dict)  # (op, size, threads) -> client -> keys/s
cpu = defaultdict(dict)    # (op, size, threads) -> client -> CPU s per 100k keys
seed = defaultdict(dict)   # client -> singles|bulk -> ops/s
clients = []
with open(source, newline="") as f:
    for row in csv.DictReader(f):
        if row["client"] not in clients and row["kind"] in (kind, "seed"):
            clients.append(row["client"])
        if row["kind"] == kind:
            key = (row["op"], int(row["size"]), int(row["threads"]))
            cells[key][row["client"]] = float(row["keys_per_s"])
            cpu[key][row["client"]] = float(row["cpu_s_per_100k"])
        elif row["kind"] == "seed":
            seed[row["client"]][row["op"]] = float(row["keys_per_s"])

ops = ["get", "set", "getMulti", "setMulti"]
sizes = sorted({size for (_, size, _) in cells})
threads = sorted({t for (_, _, t) in cells})
size = 128 if 128 in sizes else sizes[0]
colors = dict(zip(clients, ["#d62728", "#ff9896", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b"]))

fig, axes = plt.subplots(2, 3, figsize=(17, 9.5))
for ax, op in zip([axes[0][0], axes[0][1], axes[1][0], axes[1][1]], ops):
    width = 0.8 / len(clients)
    for i, client in enumerate(clients):
        values = [cells.get((op, size, t), {}).get(client, 0) / 1000 for t in threads]
        ax.bar([x + i * width for x in range(len(threads))], values, width, label=client, color=colors[client])
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(threads))], [f"{t} threads" for t in threads])
    ax.set_title(f"{op}, {size} B values" + (" (200 keys per call)" if "Multi" in op else ""))
    ax.set_ylabel("thousand keys/s")
    ax.grid(axis="y", alpha=0.3)
axes[0][0].legend(fontsize=8)

# Ours (defaults) against the best peer for every row of the table: keys/s over the highest peer's,
# or CPU per key over the lowest peer's.
peers = [c for c in clients if not c.startswith("grizzly-boot")]
rows = [(op, s) for op in ops for s in sizes]


def heatmap(ax, values, pick, title, low_is_good):
    grid = []
    for op, s in rows:
        line = []
        for t in threads:
            cell = values.get((op, s, t), {})
            best = pick([cell[p] for p in peers if p in cell] or [0])
            line.append(cell.get("grizzly-boot", 0) / best if best else float("nan"))
        grid.append(line)
    image = ax.imshow(grid, cmap="RdYlGn_r" if low_is_good else "RdYlGn", vmin=0.5, vmax=1.5, aspect="auto")
    for r, line in enumerate(grid):
        for c, value in enumerate(line):
            ax.text(c, r, f"{value:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(threads)), [str(t) for t in threads])
    ax.set_yticks(range(len(rows)), [f"{op} {s} B" for op, s in rows], fontsize=8)
    ax.set_xlabel("caller threads")
    ax.set_title(title)
    fig.colorbar(image, ax=ax, fraction=0.046)


heatmap(axes[0][2], cells, max, "grizzly-boot (defaults) / best peer, keys/s", False)

if kind == "cluster":
    heatmap(axes[1][2], cpu, min, "grizzly-boot CPU per key / lowest peer's", True)
else:
    ax = axes[1][2]
    seed_clients = [c for c in clients if c in seed]
    width = 0.38
    ax.bar([x - width / 2 for x in range(len(seed_clients))], [seed[c].get("singles", 0) for c in seed_clients], width,
           label="looped singles", color="#7f7f7f")
    ax.bar([x + width / 2 for x in range(len(seed_clients))], [seed[c].get("bulk", 0) for c in seed_clients], width,
           label="bulk (or nearest)", color="#17becf")
    ax.set_yscale("log")
    ax.set_xticks(range(len(seed_clients)), seed_clients, rotation=15, fontsize=8)
    ax.set_ylabel("ops/s (log)")
    ax.set_title("seed workload: 100k sets + 100k deletes, 1 thread")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)

servers = "three local memcached 1.6 servers, Ketama" if kind == "cluster" else "one local memcached 1.6"
fig.suptitle(f"memcached clients against {servers} (2 shared cores): median of rounds")
fig.tight_layout()
fig.savefig(target, dpi=90)
print("wrote", target)
