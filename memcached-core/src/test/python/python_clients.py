"""Python's memcached clients as a second implementation for PythonClientValuesTest.

Usage: python_clients.py PORT PREFIX SEED, with the keys our client stored on stdin, one per line.
Stores generated values with pylibmc (libmemcached) and pymemcache (pickle serde), and prints
  W <key> <flags> <hex of the stored bytes>    for each item it stored (flags as memcached has them)
  R <key> <client> <hex of what it read>       for each of our keys, read with both clients
Exits 3 with a message when a client library is missing.
"""
import random
import socket
import sys

try:
    import pylibmc
    from pymemcache import serde
    from pymemcache.client.base import Client
except ImportError as e:
    print("pylibmc and pymemcache are needed (%s): sudo apt-get install -y python3-pylibmc python3-pymemcache" % e,
          file=sys.stderr)
    sys.exit(3)


def text(rng, length):
    chars = []
    while len(chars) < length:
        cp = rng.randrange(0x20, 0x10FFFF)
        if 0xD800 <= cp <= 0xDFFF:
            continue
        chars.append(chr(cp))
    return "".join(chars)


def values(rng):
    generated = []
    for size in (0, 1, 2, 100, 1000, 16383, 16384, 16385, 50000):
        generated.append(("str-%d" % size, text(rng, size)))
        generated.append(("bytes-%d" % size, bytes(rng.randrange(256) for _ in range(size))))
    for number in (0, 1, -1, 42, 2 ** 31 - 1, -2 ** 31, 2 ** 63 - 1, 2 ** 70, rng.randrange(-10 ** 12, 10 ** 12)):
        generated.append(("int-%d" % number, number))
    generated.append(("bool-true", True))
    generated.append(("bool-false", False))
    generated.append(("float", 1.5))
    generated.append(("list", [1, "two"]))
    return generated


def raw(port, key):
    """The flags and bytes memcached holds for a key, read over the text protocol."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"get " + key.encode() + b"\r\n")
        data = b""
        while not data.endswith(b"END\r\n"):
            chunk = s.recv(1 << 20)
            if not chunk:
                raise IOError("connection closed")
            data += chunk
    header, _, rest = data.partition(b"\r\n")
    fields = header.split(b" ")
    length = int(fields[3])
    return int(fields[2]), rest[:length]


def main():
    port, prefix, seed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    ours = [line.strip() for line in sys.stdin if line.strip()]
    pylibmc_client = pylibmc.Client(["127.0.0.1:%d" % port])
    pymemcache_client = Client(("127.0.0.1", port), serde=serde.pickle_serde)
    rng = random.Random(seed)
    for client_name, client in (("pylibmc", pylibmc_client), ("pymemcache", pymemcache_client)):
        for name, value in values(rng):
            key = "%s%s-%s" % (prefix, client_name, name)
            stored_ok = client.set(key, value) if client is pylibmc_client else client.set(key, value, noreply=False)
            if not stored_ok:
                raise SystemExit("%s could not store %s" % (client_name, key))
            flags, stored = raw(port, key)
            print("W %s %d %s" % (key, flags, stored.hex()))
    for key in ours:
        print("R %s pylibmc %s" % (key, bytes(pylibmc_client.get(key)).hex()))
        print("R %s pymemcache %s" % (key, bytes(pymemcache_client.get(key)).hex()))


if __name__ == "__main__":
    main()
