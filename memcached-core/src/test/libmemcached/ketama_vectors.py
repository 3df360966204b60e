#!/usr/bin/env python3
"""Writes ketama-libmemcached-vectors.tsv: where libmemcached's ketama_weighted distribution puts
each key, asked of libmemcached itself (the library pylibmc wraps) through ctypes.

Debian: apt-get install libmemcached11 (or python3-pylibmc, which depends on it).
Usage: python3 ketama_vectors.py ../resources/ketama-libmemcached-vectors.tsv
The keys are KetamaVectors.keys() (Java), the first KEYS of them; the server lists are below.
"""
import ctypes
import ctypes.util
import sys

KEYS = 1000
MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED = 16  # libmemcached-1.0/types/behavior.h


def keys():
    for i in range(KEYS):
        kind = i % 5
        if kind == 0:
            yield "key-%d" % i
        elif kind == 1:
            yield "user:%d:profile" % i
        elif kind == 2:
            yield "ключ-%d" % i
        elif kind == 3:
            yield "日本語-%d-€" % i
        else:
            yield "long-%d-%s" % (i, "x" * 80)


def server(i):
    # Host names (libmemcached hashes the name as given), some on the default port (name alone).
    return ("mc-%d.cache.internal" % i, 22122 if i % 3 == 0 else 11211)


def cases():
    for count in range(1, 101):
        yield "equal-%d" % count, [server(i) for i in range(count)], [1] * count
    yield "weighted-4", [server(i) for i in range(4)], [1, 2, 3, 1]
    yield "weighted-25", [server(i) for i in range(25)], [1 + i % 4 for i in range(25)]
    yield "weighted-uniform-3", [server(i) for i in range(3)], [5, 5, 5]


def owners(lib, servers, weights, key_list):
    memc = lib.memcached_create(None)
    lib.memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, ctypes.c_uint64(1))
    for (host, port), weight in zip(servers, weights):
        rc = lib.memcached_server_add_with_weight(memc, host.encode(), port, weight)
        if rc != 0:
            raise RuntimeError("memcached_server_add_with_weight(%s:%d) returned %d" % (host, port, rc))
    result = []
    for key in key_list:
        raw = key.encode("utf-8")
        result.append(lib.memcached_generate_hash(memc, raw, len(raw)))
    lib.memcached_free(memc)
    return result


def library():
    """libmemcached through ctypes, with the signatures owners() calls."""
    lib = ctypes.CDLL(ctypes.util.find_library("memcached") or "libmemcached.so.11")
    lib.memcached_create.restype = ctypes.c_void_p
    lib.memcached_create.argtypes = [ctypes.c_void_p]
    lib.memcached_free.argtypes = [ctypes.c_void_p]
    lib.memcached_behavior_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64]
    lib.memcached_server_add_with_weight.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint, ctypes.c_uint32]
    lib.memcached_generate_hash.restype = ctypes.c_uint32
    lib.memcached_generate_hash.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.memcached_lib_version.restype = ctypes.c_char_p
    return lib


def main(path):
    lib = library()
    key_list = list(keys())
    columns = []
    with open(path, "w", encoding="utf-8") as out:
        out.write("# Ketama owners computed by libmemcached %s (MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED); see ketama_vectors.py.\n"
                  % lib.memcached_lib_version().decode())
        for name, servers, weights in cases():
            out.write("# case\t%s\t%s\t%s\n" % (name, ",".join("%s:%d" % s for s in servers), ",".join(map(str, weights))))
            columns.append(owners(lib, servers, weights, key_list))
        for k, key in enumerate(key_list):
            out.write(key + "".join("\t%d" % column[k] for column in columns) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
