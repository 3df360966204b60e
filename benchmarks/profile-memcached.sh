#!/usr/bin/env bash
# Runs the memcached benchmark (run-memcached.sh's harness, our client only unless --clients= says
# otherwise) under Java Flight Recorder with the "profile" settings and 1 ms method sampling, then
# prints where the CPU samples and the allocation go (benchmarks/jfr-summary.py). The first argument
# names the recording (benchmarks/target/NAME.jfr); the rest go to the harness, e.g.
#   benchmarks/profile-memcached.sh single-get --scenarios=single --sizes=128 --threads=64,200 --filter='^get/'
# Expects the build run-memcached.sh does (benchmarks/target/classes and classpath.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1
shift
java -XX:StartFlightRecording=filename=benchmarks/target/$name.jfr,settings=profile,method-profiling=max \
    -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
    dev.grizzlyboot.benchmarks.memcached.MemcachedBenchmark --clients=grizzly-boot \
    --csv=benchmarks/target/$name.csv "$@" </dev/null 2>/dev/null
python3 benchmarks/jfr-summary.py benchmarks/target/$name.jfr
