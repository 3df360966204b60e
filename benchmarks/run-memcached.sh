#!/usr/bin/env bash
# Builds the benchmarks module and runs the memcached benchmark: our client and spymemcached,
# xmemcached and folsom against one local memcached. Needs the memcached binary on the PATH.
# Arguments go to the harness (e.g. --quick, --filter=getMulti, --tuned=c8/d64/io1);
# Markdown goes to stdout, every result row to benchmarks/target/memcached-results.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl benchmarks -am package dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt -DskipTests </dev/null
exec java -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
    dev.grizzlyboot.benchmarks.memcached.MemcachedBenchmark \
    --csv=benchmarks/target/memcached-results.csv "$@" </dev/null
