#!/usr/bin/env bash
# A/B of two builds of memcached-core under the memcached harness (our client only). Each run is
# one harness whose contenders are build A, build B and a second copy of A (the control, A'), each
# in a JVM of its own with its jar in place of ours (--builds), taking turns round by round within
# every cell: a slow stretch of the machine falls on every build alike, as it does on the clients
# of a full run. The control shows, in the same runs and cells, how far two JVMs of the same build
# differ: a B/A inside the A'/A range is no difference. The order in which the JVMs start rotates
# between runs. A and B are the grizzlyboot-memcached jars to compare (copy
# memcached-core/target/*.jar away before rebuilding); RUNS is how many harness runs; the rest goes
# to the harness (more --rounds narrow each cell's noise; see docs/benchmarks.md, "Thirteenth round").
# Expects the build run-memcached.sh does. Prints, per cell, the medians over the runs of keys/s
# and CPU per 100k keys for A and B, and B/A and A'/A within each run: their median and range
# (benchmarks/ab-summary.py); each run's rows, tables and log stay in
# benchmarks/target/ab-run-N.{csv,md,log}. Example:
#   benchmarks/ab-memcached.sh /tmp/old.jar memcached-core/target/grizzlyboot-memcached-0.1.0-SNAPSHOT.jar 3 \
#       --scenarios=single --sizes=128 --threads=64,200 --filter='^getMulti/'
set -euo pipefail
cd "$(dirname "$0")/.."
a=$(realpath "$1")
b=$(realpath "$2")
runs=$3
shift 3
cp -f "$a" benchmarks/target/ab-a.jar
cp -f "$b" benchmarks/target/ab-b.jar
builds=("a=$PWD/benchmarks/target/ab-a.jar" "b=$PWD/benchmarks/target/ab-b.jar" "a2=$PWD/benchmarks/target/ab-a.jar")
rm -f benchmarks/target/ab-run-*.csv
for run in $(seq 1 "$runs"); do
    first=$(( (run - 1) % 3 ))
    order=$(printf '%s\n' "${builds[@]:first}" "${builds[@]:0:first}" | paste -sd,)
    echo "run $run: $(uptime)" >&2
    java -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
        dev.grizzlyboot.benchmarks.memcached.MemcachedBenchmark --clients=none --builds="$order" \
        --csv="benchmarks/target/ab-run-$run.csv" "$@" </dev/null \
        >"benchmarks/target/ab-run-$run.md" 2>"benchmarks/target/ab-run-$run.log" \
        || { echo "run $run failed; the end of benchmarks/target/ab-run-$run.log:" >&2
             tail -n 20 "benchmarks/target/ab-run-$run.log" >&2; exit 1; }
done
python3 benchmarks/ab-summary.py benchmarks/target
