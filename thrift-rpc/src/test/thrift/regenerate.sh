#!/usr/bin/env bash
# Regenerates the committed Java for the tutorial IDLs, and the Python that
# PythonInteropTest's oracle (../python/thrift_oracle.py) uses. The build never runs this:
# it needs the Thrift compiler 0.17-0.20 (Debian package thrift-compiler), and the
# generated sources are committed so that plain Maven builds work without it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../generated-java"
out_py="$here/../generated-py"
version="$(thrift --version | awk '{print $3}')"
case "$version" in
  0.17.*|0.18.*|0.19.*|0.20.*) ;;
  *) echo "need thrift 0.17-0.20 (generated code must compile against libthrift 0.20), found $version" >&2; exit 1 ;;
esac
rm -rf "$out/dev/grizzlyboot/thrift/tutorial"
mkdir -p "$out"
# generated_annotations=suppress: javax.annotation.Generated is not on Java 17's class path.
for idl in shared.thrift tutorial.thrift tutorial_newer.thrift; do
  thrift --gen java:generated_annotations=suppress -out "$out" "$here/$idl"
done
rm -rf "$out_py"
mkdir -p "$out_py"
for idl in shared.thrift tutorial.thrift; do
  thrift --gen py -out "$out_py" "$here/$idl"
done
# Not needed: the command-line callers and the top-level package marker.
rm -f "$out_py"/*/*-remote "$out_py/__init__.py"
