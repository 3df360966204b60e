#!/usr/bin/env bash
# Builds the benchmarks module and runs the JMH micro-benchmarks of the memcached client's hot
# pieces (key encoding, codec, Ketama lookup, transcoder, the blocking caller's spin bookkeeping) and a whole getMulti against real
# memcached (GetMultiBenchmark, which starts its own servers) with the allocation profiler; about
# 4 minutes. Arguments go to JMH, e.g. a regex of benchmarks (KetamaBenchmark) or -f 2.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl benchmarks -am package dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt -DskipTests </dev/null
exec java -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
    org.openjdk.jmh.Main -bm avgt -tu ns -f 1 -wi 3 -w 1s -i 3 -r 1s -prof gc \
    -rf text -rff benchmarks/target/jmh-results.txt "$@" </dev/null
