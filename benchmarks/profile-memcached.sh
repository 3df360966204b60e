#!/usr/bin/env bash
# Runs the memcached benchmark (run-memcached.sh's harness, our client only unless --clients= says
# otherwise) under Java Flight Recorder (benchmarks/jfr-profile.sh) and prints where the CPU samples
# and the allocation go. The first argument names the recording (benchmarks/target/NAME.jfr); the
# rest go to the harness, e.g.
#   benchmarks/profile-memcached.sh single-get --scenarios=single --sizes=128 --threads=64,200 --filter='^get/'
# Expects the build run-memcached.sh does (benchmarks/target/classes and classpath.txt).
set -euo pipefail
name=$1
shift
exec "$(dirname "$0")/jfr-profile.sh" "$name" dev.grizzlyboot.benchmarks.memcached.MemcachedBenchmark \
    --clients=grizzly-boot --csv=benchmarks/target/$name.csv "$@"
