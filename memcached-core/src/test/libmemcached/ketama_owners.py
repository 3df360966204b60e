#!/usr/bin/env python3
"""Answers GeneratedKetamaTest (Java): where libmemcached's ketama_weighted distribution puts each
key, for server lists the test generates. Reads one JSON object from standard input,
{"keys": [...], "cases": [{"servers": [[host, port], ...], "weights": [...]}, ...]}, and prints
the libmemcached version on one line, then one line per case: the owner index of each key,
separated by spaces.

Needs libmemcached (Debian: apt-get install libmemcached11, or python3-pylibmc, which depends on it).
"""
import json
import sys

from ketama_vectors import library, owners


def main():
    try:
        lib = library()
    except OSError as e:
        sys.exit("libmemcached could not be loaded (%s): install it with 'sudo apt-get install -y libmemcached11'" % e)
    request = json.load(sys.stdin)
    print(lib.memcached_lib_version().decode())
    for case in request["cases"]:
        servers = [tuple(server) for server in case["servers"]]
        print(" ".join(map(str, owners(lib, servers, case["weights"], request["keys"]))))


if __name__ == "__main__":
    main()
