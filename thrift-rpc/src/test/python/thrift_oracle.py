#!/usr/bin/env python3
"""Thrift's Python library as a second implementation for PythonInteropTest (Java).

  thrift_oracle.py client PORT PROTOCOL MAX_FRAME [SERVICE]
      Calls every method of the tutorial's Calculator on a server at 127.0.0.1:PORT over framed
      transport, checks each answer against what the tutorial's handler must return, and prints
      one line "ok <json>" (what it called) or a traceback and exits 1. A payload one byte past
      MAX_FRAME must get the connection closed, and a new connection must then work.
  thrift_oracle.py server PROTOCOL [SERVICE]
      Serves the tutorial's Calculator at 127.0.0.1 on a free port (threaded, framed) and prints
      "port N" once it listens; runs until killed. getStruct(-2147483648) answers with the number
      of zip() calls seen so far in its value ("zips N"), so that the caller can count one-way calls.

PROTOCOL is binary or compact; SERVICE, if given, is the name in a multiplexed processor. The code
for the IDL is in ../generated-py (thrift --gen py, see ../thrift/regenerate.sh).
"""
import json
import os
import random
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "generated-py"))

from thrift.Thrift import TApplicationException  # noqa: E402
from thrift.protocol import TBinaryProtocol, TCompactProtocol, TMultiplexedProtocol  # noqa: E402
from thrift.server import TServer  # noqa: E402
from thrift.TMultiplexedProcessor import TMultiplexedProcessor  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402
from shared.ttypes import SharedStruct  # noqa: E402
from tutorial import Calculator  # noqa: E402
from tutorial.ttypes import InvalidOperation, Operation, Work  # noqa: E402

ZIP_COUNT_KEY = -2147483648


def int32(value):
    """Java's int arithmetic: wraps at 32 bits."""
    return (value + 2 ** 31) % 2 ** 32 - 2 ** 31


def protocol_factory(name):
    if name == "binary":
        return TBinaryProtocol.TBinaryProtocolFactory(strictRead=True, strictWrite=True)
    if name == "compact":
        return TCompactProtocol.TCompactProtocolFactory()
    raise SystemExit("unknown protocol " + name)


def connect(port, protocol, service):
    socket = TSocket.TSocket("127.0.0.1", port)
    socket.setTimeout(30000)
    transport = TTransport.TFramedTransport(socket)
    transport.open()
    wire = protocol_factory(protocol).getProtocol(transport)
    if service:
        wire = TMultiplexedProtocol.TMultiplexedProtocol(wire, service)
    return transport, Calculator.Client(wire)


def expect(actual, expected, what):
    if actual != expected:
        raise AssertionError("%s: expected %r, got %r" % (what, expected, actual))


def payload_sizes(max_frame, rng):
    """Every size to 300 bytes, each power of two and its neighbours up to 4 MiB, random sizes."""
    sizes = set(range(0, 301))
    power = 512
    while power <= 4 * 1024 * 1024:
        sizes.update((power - 1, power, power + 1))
        power *= 2
    sizes.update(rng.randrange(0, 2 * 1024 * 1024) for _ in range(10))
    # What fits in a frame with the call's envelope (method name, field headers: under 100 bytes).
    return sorted(size for size in sizes if size <= max_frame - 100)


def run_client(port, protocol, max_frame, service):
    rng = random.Random(20261128)
    transport, client = connect(port, protocol, service)
    done = {"ping": 0, "add": 0, "calculate": 0, "invalid": 0, "getStruct": 0, "echo": 0, "zip": 0,
            "echoBytes": 0, "threads": 0, "oversized": 0}
    client.ping()
    done["ping"] += 1
    edges = [0, 1, -1, 2, 41, 2 ** 31 - 1, -2 ** 31, 2 ** 30, -2 ** 30 - 7]
    pairs = [(a, b) for a in edges for b in edges] + [
        (rng.randrange(-2 ** 31, 2 ** 31), rng.randrange(-2 ** 31, 2 ** 31)) for _ in range(200)]
    for a, b in pairs:
        if a in (-2 ** 31, -2 ** 31 + 1):
            continue  # CalculatorHandler (Java) reads these as "sleep" and "block" for other tests
        expect(client.add(a, b), int32(a + b), "add(%d, %d)" % (a, b))
        done["add"] += 1
    for a, b in pairs[:120]:
        for op, result in ((Operation.ADD, a + b), (Operation.SUBTRACT, a - b), (Operation.MULTIPLY, a * b)):
            expect(client.calculate(7, Work(num1=a, num2=b, op=op, comment="from python")), int32(result),
                   "calculate(%d %s %d)" % (a, Operation._VALUES_TO_NAMES[op], b))
            done["calculate"] += 1
        if b != 0 and not (a == -2 ** 31 and b == -1):
            quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            expect(client.calculate(7, Work(num1=a, num2=b, op=Operation.DIVIDE)), int32(quotient),
                   "calculate(%d / %d)" % (a, b))
            done["calculate"] += 1
    try:
        client.calculate(1, Work(num1=1, num2=0, op=Operation.DIVIDE))
        raise AssertionError("dividing by zero did not raise InvalidOperation")
    except InvalidOperation as e:
        expect((e.whatOp, e.why), (Operation.DIVIDE, "Cannot divide by 0"), "InvalidOperation")
        done["invalid"] += 1
    for key in edges + [rng.randrange(-2 ** 31 + 1, 2 ** 31) for _ in range(50)]:
        if key == ZIP_COUNT_KEY:
            continue
        expect(client.getStruct(key), SharedStruct(key=key, value="value %d" % key), "getStruct(%d)" % key)
        done["getStruct"] += 1
    for size in payload_sizes(max_frame, rng):
        payload = rng.randbytes(size)
        expect(client.echo(payload), payload, "echo of %d bytes" % size)
        done["echo"] += 1
        done["echoBytes"] += size
    for _ in range(25):
        client.zip()
        done["zip"] += 1
    # A two-way call after the one-way ones: they were all read, in order, on this connection.
    expect(client.add(20, 22), 42, "add after zip")
    transport.close()

    errors = []

    def calls_on_own_connection(seed):
        try:
            own_rng = random.Random(seed)
            own_transport, own = connect(port, protocol, service)
            for i in range(150):
                payload = own_rng.randbytes(own_rng.randrange(0, 20000))
                expect(own.echo(payload), payload, "echo on thread %d" % seed)
                expect(own.add(seed, i), seed + i, "add on thread %d" % seed)
            own_transport.close()
        except Exception as e:  # reported by the main thread
            errors.append(repr(e))

    threads = [threading.Thread(target=calls_on_own_connection, args=(seed,)) for seed in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    if errors or any(thread.is_alive() for thread in threads):
        raise AssertionError("concurrent connections failed: %s" % errors)
    done["threads"] = len(threads)

    # One byte past the server's frame limit: it must close this connection, not answer or hang.
    transport, client = connect(port, protocol, service)
    try:
        client.echo(b"x" * max_frame)
        raise AssertionError("a frame over the server's maximum was answered")
    except (TTransport.TTransportException, TApplicationException, EOFError, ConnectionError, OSError):
        done["oversized"] += 1
    finally:
        transport.close()
    transport, client = connect(port, protocol, service)
    expect(client.add(1, 2), 3, "add on a new connection after the oversized frame")
    transport.close()
    print("ok " + json.dumps(done, sort_keys=True), flush=True)


class Handler(Calculator.Iface):
    """What CalculatorHandler (Java) answers, in Python."""

    def __init__(self):
        self.zips = 0
        self.lock = threading.Lock()

    def ping(self):
        pass

    def add(self, num1, num2):
        return int32(num1 + num2)

    def calculate(self, logid, w):
        if w.op == Operation.ADD:
            return int32(w.num1 + w.num2)
        if w.op == Operation.SUBTRACT:
            return int32(w.num1 - w.num2)
        if w.op == Operation.MULTIPLY:
            return int32(w.num1 * w.num2)
        if w.op == Operation.DIVIDE:
            if w.num2 == 0:
                raise InvalidOperation(whatOp=w.op, why="Cannot divide by 0")
            quotient = abs(w.num1) // abs(w.num2) * (1 if (w.num1 >= 0) == (w.num2 >= 0) else -1)
            return int32(quotient)
        raise InvalidOperation(whatOp=w.op, why="Unknown operation")

    def echo(self, payload):
        return payload

    def zip(self):
        with self.lock:
            self.zips += 1

    def getStruct(self, key):
        if key == ZIP_COUNT_KEY:
            with self.lock:
                return SharedStruct(key=key, value="zips %d" % self.zips)
        return SharedStruct(key=key, value="value %d" % key)


def run_server(protocol, service):
    processor = Calculator.Processor(Handler())
    if service:
        multiplexed = TMultiplexedProcessor()
        multiplexed.registerProcessor(service, processor)
        processor = multiplexed
    socket = TSocket.TServerSocket(host="127.0.0.1", port=0)
    server = TServer.TThreadedServer(processor, socket, TTransport.TFramedTransportFactory(),
                                     protocol_factory(protocol))
    # TThreadedServer.serve() would listen again, on another free port: its accept loop, here.
    socket.listen()
    print("port %d" % socket.handle.getsockname()[1], flush=True)
    while True:
        client = socket.accept()
        if client:
            threading.Thread(target=server.handle, args=(client,), daemon=True).start()


def main(argv):
    if len(argv) >= 4 and argv[1] == "client":
        run_client(int(argv[2]), argv[3], int(argv[4]), argv[5] if len(argv) > 5 else None)
    elif len(argv) >= 3 and argv[1] == "server":
        run_server(argv[2], argv[3] if len(argv) > 3 else None)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
