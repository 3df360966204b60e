#!/usr/bin/env bash
# Runs the Thrift benchmark (ThriftBenchmark) under Java Flight Recorder (benchmarks/jfr-profile.sh)
# and prints where the CPU samples and the allocation go. The first argument names the recording
# (benchmarks/target/NAME.jfr); the rest go to the harness, e.g.
#   benchmarks/profile-thrift.sh client-binary-300 --servers=THREAD_POOL --clients=GRIZZLY \
#       --protocols=binary --payloads=300 --connections=16 --rounds=3 --seconds=2
# The CLASSES variable puts other thrift-rpc classes first on the class path (an A/B "before").
# Expects the build that docs/benchmarks-thrift.md gives (benchmarks/target/classes and classpath.txt).
set -euo pipefail
name=$1
shift
exec "$(dirname "$0")/jfr-profile.sh" "$name" dev.grizzlyboot.benchmarks.thrift.ThriftBenchmark "$@"
