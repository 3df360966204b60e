#!/usr/bin/env bash
# A/B(/C...) of builds of thrift-rpc under the Thrift harness, interleaved (A, B, A, B, ...) so that
# other load on the machine falls on all alike. Each variant is a directory of thrift-rpc classes
# (copy thrift-rpc/target/classes away before changing the code), put first on the class path.
# PAIRS is how many rounds of all variants run; the rest goes to ThriftBenchmark. Prints, per cell,
# the median over the runs of req/s and CPU µs per call per variant, and our client's ratio to
# TSocket measured in the same runs (benchmarks/ab-thrift-summary.py); the tables stay in
# benchmarks/target/ab-thrift-*.md. Expects the build docs/benchmarks-thrift.md gives. Example:
#   benchmarks/ab-thrift.sh 3 /tmp/before thrift-rpc/target/classes -- --servers=THREAD_POOL
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=$1
shift
variants=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    variants+=("$(realpath "$1")")
    shift
done
[ $# -gt 0 ] && shift
rm -f benchmarks/target/ab-thrift-*.md
for pair in $(seq 1 "$pairs"); do
    for i in "${!variants[@]}"; do
        echo "pair $pair, variant $i (${variants[$i]}): $(uptime)" >&2
        java -cp "${variants[$i]}:benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
            dev.grizzlyboot.benchmarks.thrift.ThriftBenchmark "$@" </dev/null 2>/dev/null \
            > "benchmarks/target/ab-thrift-$i-$pair.md"
    done
done
python3 benchmarks/ab-thrift-summary.py benchmarks/target "${variants[@]}"
