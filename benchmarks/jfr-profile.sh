#!/usr/bin/env bash
# Runs one of the benchmark harnesses under Java Flight Recorder with the "profile" settings and
# 1 ms method sampling, then prints where the CPU samples and the allocation go
# (benchmarks/jfr-summary.py). Arguments: the recording's name (benchmarks/target/NAME.jfr), the
# harness's main class, then its arguments. CLASSES, if set, goes first on the class path (an A/B
# "before"). Expects benchmarks/target/classes and classpath.txt (the benchmarks build).
# profile-memcached.sh and profile-thrift.sh call it.
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1
main=$2
shift 2
java -XX:StartFlightRecording=filename=benchmarks/target/$name.jfr,settings=profile,method-profiling=max \
    -cp "${CLASSES:+$CLASSES:}benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
    "$main" "$@" </dev/null 2>/dev/null
python3 benchmarks/jfr-summary.py benchmarks/target/$name.jfr
