#!/usr/bin/env python3
"""Issue 14's two Thrift ratios, from the Markdown table ThriftBenchmark prints.

Usage: java ... ThriftBenchmark > thrift.md; python3 benchmarks/summary-thrift.py thrift.md

Per row (protocol, payload, connections): our default server (connection-queue), the opt-in
connection-reader (with the benchmark's 8 workers) and our same-thread server against the best
libthrift server, with each client; the best libthrift server against the echo floor (a server
with a thread per connection and no Thrift work), where the run has it; and our pooled client
against libthrift's TSocket client on every server both ran against.
"""
import statistics
import sys

LIBTHRIFT = "libthrift T"
QUEUE = "grizzly-boot (connection-queue)"
READER = "grizzly-boot (connection-reader)"
READER_32 = "grizzly-boot (connection-reader, 32 workers)"
SAME_THREAD = "grizzly-boot (same-thread)"
FLOOR = "echo floor"


def main(path):
    cells = {}
    for line in open(path):
        if not line.startswith("| binary") and not line.startswith("| compact"):
            continue
        f = [x.strip() for x in line.strip().strip("|").split("|")]
        row = (f[0], f[1], int(f[2]))
        cells.setdefault(row, {})[(f[3], f[4])] = (float(f[5].replace(",", "")), float(f[8]))
    print("| protocol | payload | conns | connection-queue ÷ best libthrift (TSocket / our client) "
          "| connection-reader ÷ best libthrift | same-thread ÷ best libthrift | best libthrift ÷ floor "
          "| our client ÷ TSocket, per server |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    server_ratios, reader_ratios, reader_32_ratios, client_ratios = [], [], [], []
    for row, results in cells.items():
        servers = {}
        floor_shares = []
        clients = sorted({c for c, _ in results}, key=lambda c: "TSocket" not in c)
        for client in clients:
            best = max(v[0] for (c, s), v in results.items() if c == client and s.startswith(LIBTHRIFT))
            floor = [v[0] for (c, s), v in results.items() if c == client and s.startswith(FLOOR)]
            if floor:
                floor_shares.append(best / floor[0])
            for ours in (QUEUE, READER, READER_32, SAME_THREAD):
                if (client, ours) in results:
                    servers.setdefault(ours, []).append(results[(client, ours)][0] / best)
        server_ratios += servers.get(QUEUE, [])
        reader_ratios += servers.get(READER, [])
        reader_32_ratios += servers.get(READER_32, [])
        tsocket = next(c for c in clients if "TSocket" in c)
        ours = next(c for c in clients if "ThriftClient" in c)
        per_server = []
        for (c, s), v in results.items():
            if c == ours and (tsocket, s) in results:
                ratio = v[0] / results[(tsocket, s)][0]
                client_ratios.append(ratio)
                per_server.append(f"{s.replace('grizzly-boot ', '').replace('libthrift ', '')} {ratio:.2f}")
        fmt = lambda values: " / ".join(f"{v:.2f}" for v in values)
        print(f"| {row[0]} | {row[1]} | {row[2]} | {fmt(servers.get(QUEUE, []))} "
              f"| {fmt(servers.get(READER, []))} | {fmt(servers.get(SAME_THREAD, []))} | {fmt(floor_shares)} "
              f"| {', '.join(per_server)} |")
    print()
    print(f"{describe('connection-queue ÷ best libthrift', server_ratios, 1.1)}; "
          f"{describe('connection-reader ÷ best libthrift', reader_ratios, 1.1)}; "
          f"{describe('connection-reader (32 workers) ÷ best libthrift', reader_32_ratios, 1.1)}; "
          f"{describe('our client ÷ TSocket', client_ratios, 1.0)}")


def describe(name, ratios, target):
    if not ratios:
        return f"{name}: not run"
    return (f"{name}: median {statistics.median(ratios):.2f}, {min(ratios):.2f}–{max(ratios):.2f}, "
            f">= {target} in {sum(r >= target for r in ratios)} of {len(ratios)}")


if __name__ == "__main__":
    main(sys.argv[1])
