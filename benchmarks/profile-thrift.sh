#!/usr/bin/env bash
# Runs the Thrift benchmark (ThriftBenchmark) under Java Flight Recorder with the "profile" settings
# and 1 ms method sampling, then prints where the CPU samples and the allocation go
# (benchmarks/jfr-summary.py). The first argument names the recording (benchmarks/target/NAME.jfr);
# the rest go to the harness, e.g.
#   benchmarks/profile-thrift.sh client-binary-300 --servers=THREAD_POOL --clients=GRIZZLY \
#       --protocols=binary --payloads=300 --connections=16 --rounds=3 --seconds=2
# The CLASSES variable puts other thrift-rpc classes first on the class path (an A/B "before").
# Expects the build that docs/benchmarks-thrift.md gives (benchmarks/target/classes and classpath.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1
shift
java -XX:StartFlightRecording=filename=benchmarks/target/$name.jfr,settings=profile,method-profiling=max \
    -cp "${CLASSES:+$CLASSES:}benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
    dev.grizzlyboot.benchmarks.thrift.ThriftBenchmark "$@" </dev/null 2>/dev/null
python3 benchmarks/jfr-summary.py benchmarks/target/$name.jfr
