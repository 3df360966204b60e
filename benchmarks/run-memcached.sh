#!/usr/bin/env bash
# Builds the benchmarks modules and runs the memcached benchmark: our client and spymemcached,
# xmemcached, folsom and the original grizzly-memcached (in its own JVM: it needs Grizzly 2.3, we
# use Grizzly 4.0) against local memcached processes the harness starts itself. Needs the
# memcached binary on the PATH. Arguments go to the harness (e.g. --quick, --scenarios=cluster,
# --filter=getMulti, --tuned=c8/d64/io1); Markdown goes to stdout, every result row to
# benchmarks/target/memcached-results.csv, the failover buckets to benchmarks/target/memcached-failover.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
original=benchmarks/grizzly-memcached-original
./mvnw -B -q -pl "benchmarks,$original" -am package dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt -DskipTests </dev/null
exec java -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
    dev.grizzlyboot.benchmarks.memcached.MemcachedBenchmark \
    --csv=benchmarks/target/memcached-results.csv \
    --original-classpath="$PWD/$original/target/classes:$(cat $original/target/classpath.txt)" "$@" </dev/null
