#!/usr/bin/env bash
# A/B of two builds of memcached-core under the memcached harness (our client only), interleaved
# (A, B, A, B, ...) so that other load on the machine falls on both alike. A and B are the
# grizzlyboot-memcached jars to compare (copy memcached-core/target/*.jar away before rebuilding);
# PAIRS is how many A/B pairs run; the rest goes to the harness. Expects the build
# run-memcached.sh does. Prints, per cell, the median over the runs of keys/s and of client CPU
# per 100k keys for A and B and their ratio (benchmarks/ab-summary.py); the rows stay in
# benchmarks/target/ab-*.csv. Example:
#   benchmarks/ab-memcached.sh /tmp/old.jar memcached-core/target/grizzlyboot-memcached-0.1.0-SNAPSHOT.jar 3 \
#       --scenarios=single --sizes=128 --threads=64,200 --filter='^getMulti/'
set -euo pipefail
cd "$(dirname "$0")/.."
a=$(realpath "$1")
b=$(realpath "$2")
pairs=$3
shift 3
cp -f "$a" benchmarks/target/ab-a.jar
cp -f "$b" benchmarks/target/ab-b.jar
classpath=$(tr ':' '\n' < benchmarks/target/classpath.txt | grep -v '/grizzlyboot-memcached-[^/]*\.jar$' | paste -sd:)
rm -f benchmarks/target/ab-[ab]-*.csv
for pair in $(seq 1 "$pairs"); do
    for variant in a b; do
        echo "pair $pair, $variant: $(uptime)" >&2
        java -cp "benchmarks/target/classes:benchmarks/target/ab-$variant.jar:$classpath" \
            dev.grizzlyboot.benchmarks.memcached.MemcachedBenchmark --clients=grizzly-boot \
            --csv="benchmarks/target/ab-$variant-$pair.csv" "$@" </dev/null >/dev/null 2>&1
    done
done
python3 benchmarks/ab-summary.py benchmarks/target
