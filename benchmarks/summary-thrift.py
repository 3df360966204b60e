#!/usr/bin/env python3
"""Issue 14's two Thrift ratios, from the Markdown table ThriftBenchmark prints.

Usage: java ... ThriftBenchmark > thrift.md; python3 benchmarks/summary-thrift.py thrift.md

Per row (protocol, payload, connections): our default server (connection-queue) and our
same-thread server against the best libthrift server, with each client; and our pooled client
against libthrift's TSocket client on every server both ran against.
"""
import statistics
import sys

LIBTHRIFT = "libthrift T"


def main(path):
    cells = {}
    for line in open(path):
        if not line.startswith("| binary") and not line.startswith("| compact"):
            continue
        f = [x.strip() for x in line.strip().strip("|").split("|")]
        row = (f[0], f[1], int(f[2]))
        cells.setdefault(row, {})[(f[3], f[4])] = (float(f[5].replace(",", "")), float(f[8]))
    print("| protocol | payload | conns | connection-queue ÷ best libthrift (TSocket / our client) "
          "| same-thread ÷ best libthrift (TSocket / our client) | our client ÷ TSocket, per server |")
    print("|---|---:|---:|---:|---:|---|")
    server_ratios, client_ratios = [], []
    for row, results in cells.items():
        servers = {}
        clients = sorted({c for c, _ in results})
        for client in clients:
            best = max(v[0] for (c, s), v in results.items() if c == client and s.startswith(LIBTHRIFT))
            for ours in ("grizzly-boot (connection-queue)", "grizzly-boot (same-thread)"):
                if (client, ours) in results:
                    servers.setdefault(ours, []).append(results[(client, ours)][0] / best)
        server_ratios += servers.get("grizzly-boot (connection-queue)", [])
        tsocket = next(c for c in clients if "TSocket" in c)
        ours = next(c for c in clients if "ThriftClient" in c)
        per_server = []
        for (c, s), v in results.items():
            if c == ours and (tsocket, s) in results:
                ratio = v[0] / results[(tsocket, s)][0]
                client_ratios.append(ratio)
                per_server.append(f"{s.replace('grizzly-boot ', '').replace('libthrift ', '')} {ratio:.2f}")
        fmt = lambda values: " / ".join(f"{v:.2f}" for v in values)
        print(f"| {row[0]} | {row[1]} | {row[2]} | {fmt(servers.get('grizzly-boot (connection-queue)', []))} "
              f"| {fmt(servers.get('grizzly-boot (same-thread)', []))} | {', '.join(per_server)} |")
    print()
    print(f"connection-queue ÷ best libthrift: median {statistics.median(server_ratios):.2f}, "
          f"{min(server_ratios):.2f}–{max(server_ratios):.2f}, >= 1.1 in {sum(r >= 1.1 for r in server_ratios)} "
          f"of {len(server_ratios)}; our client ÷ TSocket: median {statistics.median(client_ratios):.2f}, "
          f"{min(client_ratios):.2f}–{max(client_ratios):.2f}, >= 1.0 in {sum(r >= 1.0 for r in client_ratios)} "
          f"of {len(client_ratios)}")


if __name__ == "__main__":
    main(sys.argv[1])
