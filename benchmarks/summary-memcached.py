#!/usr/bin/env python3
"""Ours (builder defaults) against the best peer, per cell, from the memcached benchmark's CSV.

Usage: python3 benchmarks/summary-memcached.py [benchmarks/target/memcached-results.csv ...] [--ceiling] [--cores=N]

Prints the Markdown table of docs/benchmarks.md "Summary" (one row per one-server and three-server
cell: our keys/s, the best peer and its keys/s, the ratio, our CPU per 100k keys, the lowest peer
CPU, the CPU ratio), then the counts against issue 14's targets (ratio >= 1.2, CPU ratio <= 0.8).
Tuned variants of ours are left out; peers are every other client in the file. Errors and misses
(the CSV's `errors` and `misses` columns) are printed next to our keys/s and the best peer's.

With --ceiling (CSV files that have the server_cpu_s_per_100k and machine_busy columns) it prints
instead, per cell, what bounds it: how busy the machine was in our round and the best peer's, the
CPU per key of the whole machine (cores x busy share / keys/s), of memcached and of the client, and
the client CPU per key that 1.2x the best peer would leave us if the machine stayed as busy and
everything but our client cost what it cost in our round ("budget"; 0 or less: no client could).
--cores is the machine's core count (default: this machine's). One-thread rows also get the
round-trip floor of the run's `floor` scenario (a blocking socket, one call at a time) and our
keys/s and the best peer's as a share of it.

Given several CSV files (whole runs of the same code), it prints instead, per cell, the ratio and
the CPU ratio in each run and their medians, then the counts against the targets on the medians:
a single run's cell moves by about 0.10 (docs/benchmarks.md, "Eleventh round"). Every run and
cell where ours or the best peer had errors or misses is listed after the table.
"""
import csv
import os
import statistics
import sys

OURS = "grizzly-boot"
KINDS = {"cell": 1, "cluster": 3}


def read_cells(path):
    cells = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["kind"] not in KINDS:
                continue
            key = (KINDS[row["kind"]], row["op"], int(row["size"]), int(row["threads"]))
            cells.setdefault(key, {})[row["client"]] = row
    return cells


def ours_and_best_peer(clients):
    ours = clients.get(OURS)
    peers = {name: row for name, row in clients.items() if not name.startswith(OURS)}
    if ours is None or not peers:
        return None, None, peers
    best_name = max(peers, key=lambda name: float(peers[name]["keys_per_s"]))
    return ours, best_name, peers


def sorted_keys(cells):
    ops = ["get", "set", "getMulti", "setMulti"]
    return sorted(cells, key=lambda k: (k[0], ops.index(k[1]) if k[1] in ops else 9, k[2], k[3]))


def lowest_peer_cpu(peers):
    return min(float(row["cpu_s_per_100k"]) for row in peers.values())


def ratios_of(clients):
    """Ours ÷ the best peer's keys/s and ours ÷ the lowest peer's CPU per key, or None without both."""
    ours, best_name, peers = ours_and_best_peer(clients)
    if ours is None:
        return None
    return (float(ours["keys_per_s"]) / float(peers[best_name]["keys_per_s"]),
            float(ours["cpu_s_per_100k"]) / lowest_peer_cpu(peers))


def problems(row):
    """" (N errors, M misses)" for a row whose calls failed or whose gets found nothing, else "".

    A key the harness wrote and then asked for was there to find; a client that missed or failed
    calls did less than its keys/s says. Files from before the misses column have no misses.
    """
    found = [f"{row[column]} {column}" for column in ("errors", "misses") if row.get(column) not in (None, "", "0")]
    return f" ({', '.join(found)})" if found else ""


def counts(ratios, cpu_ratios):
    return (f"cells: {len(ratios)}; ratio >= 1.0: {sum(r >= 1.0 for r in ratios)}; "
            f">= 1.2: {sum(r >= 1.2 for r in ratios)}; median {statistics.median(ratios):.2f}; "
            f"worst {min(ratios):.2f}; CPU ratio <= 0.8: {sum(c <= 0.8 for c in cpu_ratios)}; "
            f"<= 1.0: {sum(c <= 1.0 for c in cpu_ratios)}; median CPU ratio {statistics.median(cpu_ratios):.2f}")


def main(path):
    cells = read_cells(path)
    print("| servers | op | value | threads | ours keys/s | best peer | peer keys/s | ratio "
          "| ours CPU s/100k | lowest peer CPU s/100k | CPU ratio |")
    print("|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    ratios, cpu_ratios = [], []
    for key in sorted_keys(cells):
        ours, best_name, peers = ours_and_best_peer(cells[key])
        if ours is None:
            continue
        best = peers[best_name]
        lowest_cpu = lowest_peer_cpu(peers)
        ratio, cpu_ratio = ratios_of(cells[key])
        ratios.append(ratio)
        cpu_ratios.append(cpu_ratio)
        servers, op, size, threads = key
        print(f"| {servers} | {op} | {size} B | {threads} | {float(ours['keys_per_s']):,.0f}{problems(ours)} "
              f"| {best_name.replace(' (own JVM)', '')} | {float(best['keys_per_s']):,.0f}{problems(best)} | {ratio:.2f} "
              f"| {float(ours['cpu_s_per_100k']):.2f} | {lowest_cpu:.2f} | {cpu_ratio:.2f} |")
    if not ratios:
        return
    print()
    print(counts(ratios, cpu_ratios))


def over_runs(paths):
    cells_per_run = [read_cells(path) for path in paths]
    runs = [{key: r for key, clients in cells.items() if (r := ratios_of(clients))} for cells in cells_per_run]
    names = " / ".join(f"run {i + 1}" for i in range(len(paths)))
    print(f"| servers | op | value | threads | ratio ({names}) | median | CPU ratio ({names}) | median |")
    print("|---:|---|---:|---:|---|---:|---|---:|")
    medians, cpu_medians = [], []
    for key in sorted_keys(set.intersection(*(set(run) for run in runs))):
        per_run = [run[key] for run in runs]
        ratio = statistics.median(r for r, _ in per_run)
        cpu_ratio = statistics.median(c for _, c in per_run)
        medians.append(ratio)
        cpu_medians.append(cpu_ratio)
        servers, op, size, threads = key
        print(f"| {servers} | {op} | {size} B | {threads} | {' / '.join(f'{r:.2f}' for r, _ in per_run)} | {ratio:.2f} "
              f"| {' / '.join(f'{c:.2f}' for _, c in per_run)} | {cpu_ratio:.2f} |")
    if not medians:
        return
    print()
    for i, cells in enumerate(cells_per_run):
        for key in sorted_keys(cells):
            ours, best_name, peers = ours_and_best_peer(cells[key])
            if ours is None:
                continue
            for name, row in ((OURS, ours), (best_name, peers[best_name])):
                if problems(row):
                    servers, op, size, threads = key
                    print(f"Run {i + 1}, {servers} server(s) {op} {size} B {threads} threads, {name}:{problems(row)}")
    print("Medians over the runs: " + counts(medians, cpu_medians))
    for i, run in enumerate(runs):
        print(f"Run {i + 1} ({paths[i]}): " + counts([r for r, _ in run.values()], [c for _, c in run.values()]))


def read_floor(path):
    with open(path, newline="") as f:
        return {(row["op"], int(row["size"])): float(row["keys_per_s"])
                for row in csv.DictReader(f) if row["kind"] == "floor"}


def ceiling(path, cores):
    cells = read_cells(path)
    floor = read_floor(path)
    print("| servers | op | value | threads | ratio | machine busy ours / peer | machine CPU s/100k ours / peer "
          "| memcached CPU s/100k ours / peer | client CPU s/100k ours / peer | client budget for 1.2x | budget / ours "
          "| 1-thread floor keys/s (ours, peer as share) |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for key in sorted_keys(cells):
        ours, best_name, peers = ours_and_best_peer(cells[key])
        if ours is None or not ours.get("machine_busy"):
            continue
        peer = peers[best_name]

        def machine(row):
            return cores * float(row["machine_busy"]) / float(row["keys_per_s"]) * 100_000

        ratio = float(ours["keys_per_s"]) / float(peer["keys_per_s"])
        ours_client = float(ours["cpu_s_per_100k"])
        # What 1.2x the peer's keys/s leaves for our client when the rest of the machine's work per key
        # (memcached, the kernel's share not billed to a process, everything else) stays as in our round.
        budget = machine(peer) / 1.2 - (machine(ours) - ours_client)
        servers, op, size, threads = key
        floor_text = ""
        if threads == 1 and (op, size) in floor:
            f = floor[(op, size)]
            floor_text = f"{f:,.0f} ({float(ours['keys_per_s']) / f:.2f}, {float(peer['keys_per_s']) / f:.2f})"
        print(f"| {servers} | {op} | {size} B | {threads} | {ratio:.2f} "
              f"| {float(ours['machine_busy']) * 100:.0f}% / {float(peer['machine_busy']) * 100:.0f}% "
              f"| {machine(ours):.2f} / {machine(peer):.2f} "
              f"| {float(ours['server_cpu_s_per_100k']):.2f} / {float(peer['server_cpu_s_per_100k']):.2f} "
              f"| {ours_client:.2f} / {float(peer['cpu_s_per_100k']):.2f} "
              f"| {budget:.2f} | {budget / ours_client:.2f} | {floor_text} |")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    source = args[0] if args else "benchmarks/target/memcached-results.csv"
    if len(args) > 1:
        over_runs(args)
    elif "--ceiling" in flags:
        cores = next((int(f.split("=", 1)[1]) for f in flags if f.startswith("--cores=")), os.cpu_count())
        ceiling(source, cores)
    else:
        main(source)
