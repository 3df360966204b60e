"""Summarises a JFR recording: the hottest methods by CPU sample (self and inclusive) and the
allocation by class and by the first grizzly-boot frame that allocated it.

    python3 benchmarks/jfr-summary.py recording.jfr [rows]
"""
import collections
import re
import subprocess
import sys

UNITS = {"bytes": 1, "byte": 1, "kB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}
FRAME = re.compile(r"^\s+([\w$.<>/]+)\(.*?line: -?\d+", re.M)


def events(recording, name):
    text = subprocess.run(["jfr", "print", "--events", name, "--stack-depth", "64", recording],
                          capture_output=True, text=True, check=True).stdout
    for event in text.split("\n}\n"):
        frames = FRAME.findall(event)
        if frames:
            yield event, frames


def ours(frames):
    return next((f for f in frames if ".grizzlyboot." in f and ".benchmarks." not in f), frames[0])


def table(title, counter, total, rows):
    print(f"\n{title}")
    for key, weight in counter.most_common(rows):
        print(f"{100 * weight / total:5.1f}%  {key}")


def main():
    recording = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    own, inclusive, total = collections.Counter(), collections.Counter(), 0
    for _, frames in events(recording, "jdk.ExecutionSample"):
        total += 1
        own[frames[0]] += 1
        for frame in set(frames):
            inclusive[frame] += 1
    print(f"CPU: {total} samples")
    table("self", own, total, rows)
    table("inclusive", inclusive, total, rows)
    by_class, by_site, bytes_total = collections.Counter(), collections.Counter(), 0
    for event, frames in events(recording, "jdk.ObjectAllocationSample"):
        weight = re.search(r"weight = ([\d.]+) (\w+)", event)
        kind = re.search(r"objectClass = ([\w$.\[\]]+)", event)
        amount = float(weight.group(1)) * UNITS.get(weight.group(2), 1) if weight else 1
        bytes_total += amount
        by_class[kind.group(1) if kind else "?"] += amount
        by_site[(kind.group(1) if kind else "?") + " @ " + ours(frames)] += amount
    print(f"\nallocation: {bytes_total / 1024 ** 2:.0f} MB sampled")
    table("by class", by_class, bytes_total, rows)
    table("by class @ first grizzly-boot frame", by_site, bytes_total, rows)


main()
