#!/usr/bin/env bash
# Builds the benchmarks module and runs the ZooKeeper sync benchmark: N members (each its own
# memcached client and ZooKeeper session, all in this JVM) against an in-process ZooKeeper that
# counts requests and watch notifications itself; a few server-list changes per N. Needs the
# memcached binary on the PATH. Arguments go to the harness (e.g. --members=5,20,50,100,500,
# --changes=3, --commit-delay-ms=2000, --session-timeout-ms=15000); Markdown goes to stdout, one
# row per change to benchmarks/target/zookeeper-results.csv. The large fixed heap keeps young
# collections rare: with hundreds of members there are thousands of threads in this one JVM, and
# scanning their stacks made each collection a pause of up to 0.4 s that no real fleet shares.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl benchmarks -am package dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt -DskipTests </dev/null
exec java -Xss512k -Xms2g -Xmx4g -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
    dev.grizzlyboot.benchmarks.zookeeper.SyncBenchmark \
    --csv=benchmarks/target/zookeeper-results.csv "$@" </dev/null
