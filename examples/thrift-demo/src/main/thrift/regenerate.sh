#!/usr/bin/env bash
# Regenerates the committed Java for calculator.thrift. The build never runs this: it needs the
# Thrift compiler 0.17-0.20 (Debian package thrift-compiler), whose output compiles against libthrift 0.20.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../generated-java"
rm -rf "$out/dev/grizzlyboot/examples/thriftdemo/api"
mkdir -p "$out"
# generated_annotations=suppress: javax.annotation.Generated is not on Java 17's class path.
thrift --gen java:generated_annotations=suppress -out "$out" "$here/calculator.thrift"
