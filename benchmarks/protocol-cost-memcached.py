#!/usr/bin/env python3
"""memcached's own CPU per key for the same reads and writes in the binary, text and meta protocols.

Starts one memcached (`memcached -t 2 -m 512`, as the harness does) on a free loopback port, stores
2,000 keys, then sends the same keys in batches over two connections, each batch written at once and
its replies read in full before the next, and divides memcached's CPU time (/proc/PID/stat) by the
keys. The client here is this script; only memcached's CPU is counted, so the script's own speed
does not enter the figures. Kinds, each batch of N keys:

  binary GET x N          N binary GETs (what a client sends for N pipelined single gets)
  meta mg x N             N `mg KEY v`
  text get x N            N `get KEY` commands
  binary GETQ x N + NOOP  what grizzly-boot sends for a bulk read (binary clients send quiet gets)
  meta mg q x N + mn      the meta protocol's bulk read
  text get K1 ... KN      one text command for all N keys (the text protocol's bulk read)
  binary SET, text set, meta ms  N writes

Usage: python3 benchmarks/protocol-cost-memcached.py [--runs=5] [--sizes=32,512] [--batches=10,67,200]
Needs `memcached` on the PATH (Debian: apt-get install -y memcached). Prints Markdown.
"""
import os
import socket
import statistics
import struct
import subprocess
import sys
import time

KEYS = [b'grizzly-boot:%06d' % i for i in range(2000)]
KEYS_PER_RUN = 300_000


def header(opcode, key_length, extras_length, body_length, opaque):
    return struct.pack('>BBHBBHIIQ', 0x80, opcode, key_length, extras_length, 0, 0, body_length, opaque, 0)


def text_value_line(key, size):
    return b'VALUE %s 0 %d\r\n' % (key, size)


# Each kind: (request bytes for a batch of keys, reply length in bytes for that batch).
KINDS = {
    'binary GET x N': (
        lambda keys, value: b''.join(header(0x00, len(k), 0, len(k), i) + k for i, k in enumerate(keys)),
        lambda keys, size: sum(24 + 4 + size for _ in keys)),
    'meta mg x N': (
        lambda keys, value: b''.join(b'mg %s v\r\n' % k for k in keys),
        lambda keys, size: sum(len(b'VA %d\r\n' % size) + size + 2 for _ in keys)),
    'text get x N': (
        lambda keys, value: b''.join(b'get %s\r\n' % k for k in keys),
        lambda keys, size: sum(len(text_value_line(k, size)) + size + 2 + 5 for k in keys)),
    'binary GETQ x N + NOOP': (
        lambda keys, value: b''.join(header(0x09, len(k), 0, len(k), i) + k for i, k in enumerate(keys))
        + header(0x0a, 0, 0, 0, len(keys)),
        lambda keys, size: sum(24 + 4 + size for _ in keys) + 24),
    'meta mg q x N + mn': (
        lambda keys, value: b''.join(b'mg %s v k q\r\n' % k for k in keys) + b'mn\r\n',
        lambda keys, size: sum(len(b'VA %d k%s\r\n' % (size, k)) + size + 2 for k in keys) + 4),
    'text get K1 ... KN': (
        lambda keys, value: b'get ' + b' '.join(keys) + b'\r\n',
        lambda keys, size: sum(len(text_value_line(k, size)) + size + 2 for k in keys) + 5),
    'binary SET x N': (
        lambda keys, value: b''.join(header(0x01, len(k), 8, 8 + len(k) + len(value), i) + struct.pack('>II', 0, 0)
                                     + k + value for i, k in enumerate(keys)),
        lambda keys, size: 24 * len(keys)),
    'text set x N': (
        lambda keys, value: b''.join(b'set %s 0 0 %d\r\n' % (k, len(value)) + value + b'\r\n' for k in keys),
        lambda keys, size: 8 * len(keys)),
    'meta ms x N': (
        lambda keys, value: b''.join(b'ms %s %d\r\n' % (k, len(value)) + value + b'\r\n' for k in keys),
        lambda keys, size: 4 * len(keys)),
}


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def start_memcached(port):
    command = ['memcached', '-t', '2', '-m', '512', '-U', '0', '-l', '127.0.0.1', '-p', str(port)]
    if os.geteuid() == 0:
        command += ['-u', 'root']
    try:
        process = subprocess.Popen(command)
    except FileNotFoundError:
        sys.exit('memcached is not installed (Debian: apt-get install -y memcached)')
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(('127.0.0.1', port)).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    sys.exit('memcached did not start on port %d' % port)


def cpu_seconds(pid):
    fields = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def receive(sock, length):
    received = bytearray()
    while len(received) < length:
        try:
            chunk = sock.recv(length - len(received))
        except socket.timeout:
            sys.exit('memcached sent %d of the %d reply bytes expected' % (len(received), length))
        if not chunk:
            sys.exit('memcached closed the connection')
        received += chunk
    return received


def run(port, pid, kind, size, batch):
    request, reply_length = KINDS[kind]
    value = b'x' * size
    batches = []
    for b in range(50):
        keys = [KEYS[(b * batch + j) % len(KEYS)] for j in range(batch)]
        batches.append((request(keys, value), reply_length(keys, size)))
    connections = [socket.create_connection(('127.0.0.1', port)) for _ in range(2)]
    for connection in connections:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # A reply shorter than expected (a miss, an error) fails here instead of waiting forever.
        connection.settimeout(10)
    keys_sent = 0
    before = cpu_seconds(pid)
    i = 0
    while keys_sent < KEYS_PER_RUN:
        data, length = batches[i % len(batches)]
        i += 1
        for connection in connections:
            connection.sendall(data)
        for connection in connections:
            receive(connection, length)
        keys_sent += batch * len(connections)
    spent = cpu_seconds(pid) - before
    for connection in connections:
        # A reply longer than expected would have left bytes behind: then the lengths above were wrong.
        connection.setblocking(False)
        try:
            if connection.recv(1):
                sys.exit('%s: memcached sent more than the expected replies' % kind)
        except BlockingIOError:
            pass
        connection.close()
    return spent / keys_sent * 1e6


def store(port, size):
    with socket.create_connection(('127.0.0.1', port)) as connection:
        for key in KEYS:
            connection.sendall(b'set %s 0 0 %d\r\n' % (key, size) + b'x' * size + b'\r\n')
            if receive(connection, 8) != b'STORED\r\n':
                sys.exit('could not store ' + key.decode())


def main():
    options = dict(arg[2:].split('=', 1) for arg in sys.argv[1:] if arg.startswith('--') and '=' in arg)
    runs = int(options.get('runs', '5'))
    sizes = [int(s) for s in options.get('sizes', '32,512').split(',')]
    batches = [int(b) for b in options.get('batches', '10,67,200').split(',')]
    port = free_port()
    memcached = start_memcached(port)
    try:
        version = subprocess.run(['memcached', '-V'], capture_output=True, text=True).stdout.strip()
        print('%s, -t 2; two connections, batches written whole; memcached CPU per key, median of %d runs '
              '(lowest-highest), %d keys per run\n' % (version, runs, KEYS_PER_RUN))
        print('| value | keys per batch | ' + ' | '.join(KINDS) + ' |')
        print('|---:|---:|' + '---:|' * len(KINDS))
        for size in sizes:
            store(port, size)
            for batch in batches:
                results = {kind: [] for kind in KINDS}
                for _ in range(runs):
                    for kind in KINDS:
                        results[kind].append(run(port, memcached.pid, kind, size, batch))
                cells = ['%.2f µs (%.2f-%.2f)' % (statistics.median(v), min(v), max(v)) for v in results.values()]
                print('| %d B | %d | %s |' % (size, batch, ' | '.join(cells)), flush=True)
    finally:
        memcached.terminate()
        memcached.wait()


if __name__ == '__main__':
    main()
