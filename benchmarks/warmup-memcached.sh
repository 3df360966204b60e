#!/usr/bin/env bash
# How fast memcached clients run while the JIT is still compiling them. Each entry runs in a fresh
# JVM: the harness's set-up (the client writes the key space, then 0.4 s of calls), a warm-up of
# 0.1 s, then ONE measured round of SECONDS without waiting for the JIT (--jit-settle=0). The
# settled rounds of run-memcached.sh wait for the compilers to go quiet first, so they never show
# this. An entry is a harness client (grizzly-boot, xmemcached-text, folsom-text, spymemcached, …)
# or NAME=JAR: our client from JAR (a memcached-core jar; copy it away before rebuilding) in place
# of the tree's. The entries take turns RUNS times, the first of each turn rotating; the arguments
# after -- go to the harness and should name one cell. Prints each run's row, then per entry the
# median and range over the runs of keys/s, of the process's CPU per 100k keys and of the JIT
# compiler threads' CPU during the round. Expects the build run-memcached.sh does. Example
# (docs/benchmarks.md, "Eighteenth round"):
#   benchmarks/warmup-memcached.sh 3 30 grizzly-boot xmemcached-text folsom-text -- \
#       --scenarios=cluster --sizes=32 --threads=64 --filter='getMulti/'
set -euo pipefail
cd "$(dirname "$0")/.."
runs=$1
seconds=$2
shift 2
entries=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    entries+=("$1")
    shift
done
[ $# -gt 0 ] && shift
out=benchmarks/target/warmup
mkdir -p "$out"
rm -f "$out"/*.csv "$out"/*.log
classes="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
names=()
for entry in "${entries[@]}"; do
    names+=("${entry%%=*}")
done
for run in $(seq 1 "$runs"); do
    for k in $(seq 0 $((${#entries[@]} - 1))); do
        entry=${entries[$(( (run - 1 + k) % ${#entries[@]} ))]}
        name=${entry%%=*}
        if [[ $entry == *=* ]]; then
            client=grizzly-boot
            classpath="$(realpath "${entry#*=}"):$classes"
        else
            client=$entry
            classpath=$classes
        fi
        java -cp "$classpath" dev.grizzlyboot.benchmarks.memcached.MemcachedBenchmark --clients="$client" \
            --csv="$out/$name-$run.csv" --rounds=1 --seconds="$seconds" --warmup=0.1 --jit-settle=0 "$@" \
            </dev/null >"$out/$name-$run.log" 2>&1
        echo "run $run, $name: $(tail -1 "$out/$name-$run.csv")"
    done
done
python3 - "$out" "$seconds" "${names[@]}" <<'EOF'
import csv, glob, statistics, sys

out, seconds, names = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"\n| client | runs | keys/s in the first {seconds} s, median (range) | CPU s/100k keys | JIT compiler CPU in the round, ms |")
print("|---|---:|---|---|---|")
for name in names:
    rows = []
    for path in sorted(glob.glob(f"{out}/{name}-*.csv")):
        with open(path) as f:
            rows += list(csv.DictReader(f))[-1:]
    def cell(column, digits):
        values = [float(r[column]) for r in rows]
        return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"
    print(f"| {name} | {len(rows)} | {cell('keys_per_s', 0)} | {cell('cpu_s_per_100k', 3)} | {cell('compile_ms', 0)} |")
EOF
