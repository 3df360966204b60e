package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.server.ThriftServerBuilder;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.Operation;
import dev.grizzlyboot.thrift.tutorial.Work;
import dev.grizzlyboot.thrift.tutorial.shared.SharedService;
import dev.grizzlyboot.thrift.tutorial.shared.SharedStruct;
import org.apache.thrift.TBase;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * Sends calls whose frames range from a few bytes to 4 MiB, and frames either side of a configured
 * maximum in each direction, through libthrift's and our client against libthrift's and our server,
 * for both protocols and three of our server's I/O strategies. libthrift's client against
 * libthrift's server is the oracle: every other pairing must give the same answer where it accepts a
 * call, reject it with a typed exception where it rejects, and serve the next call on the same
 * client and server after a rejection.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThriftSizeSweepDifferentialTest {
    /** Small enough that frames either side of it are cheap, larger than one read of most buffers. */
    private static final int LIMIT = 64 * 1024;
    /** Below the servers' limit, so that only a reply can exceed it. */
    private static final int CLIENT_LIMIT = 32 * 1024;
    private static final int LARGEST = 1 << 22;
    /** Null stands for the server's default strategy. */
    private static final List<IoStrategy> STRATEGIES = Arrays.asList(null, IoStrategy.SAME_THREAD, IoStrategy.WORKER_THREAD);
    private static final String[] TYPES = {"UNKNOWN", "NOT_OPEN", "ALREADY_OPEN", "TIMED_OUT", "END_OF_FILE", "CORRUPTED_DATA"};
    private static final byte[] BYTES = new byte[LARGEST + 8192];

    static {
        new Random(20240607).nextBytes(BYTES);
    }

    private final Map<String, Set<String>> rejections = new TreeMap<>();
    private final Map<String, Long> millis = new TreeMap<>();

    /**
     * What a call moves: echo, {@code size} bytes both ways; calculate, a comment of {@code size}
     * characters in the request and a small reply; getStruct, the other way round.
     */
    enum Kind { ECHO, REQUEST, REPLY }

    record Call(Kind kind, int size) {
    }

    /** The client end of a pairing, and what it does after a rejection. */
    record Caller(Supplier<Calculator.Iface> calculator, Callable<?> recover, AutoCloseable closer) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            closer.close();
        }
    }

    record Server(int port, AutoCloseable stopper) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            stopper.close();
        }
    }

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void everySizeUpToFourMebibytesIsEchoedAsByLibthrift(ThriftProtocol protocol) throws Exception {
        TreeSet<Integer> sizes = new TreeSet<>();
        IntStream.rangeClosed(7, 22).forEach(k -> IntStream.rangeClosed(-3, 3).forEach(d -> sizes.add((1 << k) + d)));
        try (Socket socket = new Socket()) {
            // Wire lengths (prefix included) where our transports split, grow or drop buffers:
            // FrameTransport's first write array, FrameAssembler's read space, DirectFraming's and
            // FrameAssembler's first read arrays, FrameAssembler dropping a grown array, DirectFraming's
            // socket chunk and Grizzly's largest pooled buffer, Grizzly's read size (SO_RCVBUF), SO_SNDBUF.
            for (int wire : new int[] {1024, 4096, 8192, 8192 + 4096, 65536, socket.getReceiveBufferSize(),
                    Math.min(socket.getSendBufferSize(), LARGEST)}) {
                IntStream.rangeClosed(-3, 3).forEach(d -> sizes.add(sizeForFrame(protocol, Kind.ECHO, wire + d - 4)));
            }
        }
        new Random(7).ints(8, 0, LARGEST).forEach(sizes::add);
        List<Call> all = new ArrayList<>();
        IntStream.rangeClosed(0, 1100).filter(size -> !sizes.contains(size)).forEach(size -> all.add(new Call(Kind.ECHO, size)));
        sizes.forEach(size -> all.add(new Call(Kind.ECHO, size)));
        // The strategies other than the default share ThriftFrameFilter and differ only in the thread
        // that runs it: every fifth small size and the boundaries up to 1 MiB (16 socket reads), with
        // one 4 MiB frame, keep this test under 15 s on two cores.
        List<Call> lighter = all.stream().filter(call -> sizes.contains(call.size()) ? call.size() <= (1 << 20) + 3
                || call.size() == LARGEST + 3 : call.size() % 5 == 0).toList();
        compareAllPairings("sweep", protocol, TConfiguration.DEFAULT_MAX_FRAME_SIZE, TConfiguration.DEFAULT_MAX_FRAME_SIZE,
                all, lighter);
    }

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void framesAroundTheMaximumAreAcceptedOrRejectedAsByLibthrift(ThriftProtocol protocol) throws Exception {
        List<Call> calls = new ArrayList<>();
        for (int frame = LIMIT - 3; frame <= LIMIT + 3; frame++) {
            calls.add(new Call(Kind.ECHO, sizeForFrame(protocol, Kind.ECHO, frame)));
            // Its reply is small, so only the server's limit can reject it.
            calls.add(new Call(Kind.REQUEST, sizeForFrame(protocol, Kind.REQUEST, frame)));
        }
        // Far over the limit: a server that waited for the whole frame would stall the client here.
        calls.add(new Call(Kind.ECHO, LARGEST));
        calls.add(new Call(Kind.ECHO, 0));
        compareAllPairings("requests at the limit", protocol, LIMIT, LIMIT, calls, calls);
    }

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void repliesOverTheClientsMaximumAreRejectedAsByLibthrift(ThriftProtocol protocol) throws Exception {
        List<Call> calls = new ArrayList<>();
        for (int frame : new int[] {CLIENT_LIMIT - 1, CLIENT_LIMIT, CLIENT_LIMIT + 1, CLIENT_LIMIT + 2, LIMIT}) {
            calls.add(new Call(Kind.REPLY, sizeForFrame(protocol, Kind.REPLY, frame)));
            // The rejected reply must not reach the next call.
            calls.add(new Call(Kind.REPLY, 3));
        }
        compareAllPairings("replies over the client's limit", protocol, LIMIT, CLIENT_LIMIT, calls, calls);
    }

    /**
     * A server's limit is on what it reads: libthrift's servers send a reply of any size, and the
     * client's own limit decides whether it takes it.
     */
    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void repliesOverTheServersOwnLimitAreSentAsByLibthrift(ThriftProtocol protocol) throws Exception {
        List<Call> calls = new ArrayList<>();
        for (int frame : new int[] {CLIENT_LIMIT - 1, CLIENT_LIMIT, CLIENT_LIMIT + 1, LIMIT}) {
            calls.add(new Call(Kind.REPLY, sizeForFrame(protocol, Kind.REPLY, frame)));
        }
        compareAllPairings("replies over the server's limit", protocol, CLIENT_LIMIT, LIMIT, calls, calls);
    }

    /**
     * libthrift's client sends any request and lets the server refuse it; ours refuses one over its
     * own limit unsent. That fails the same way on every server, so it is not retried, and the
     * connection it did not use stays in the pool.
     */
    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void aRequestOverTheClientsLimitFailsAtOnceAndKeepsTheConnection(ThriftProtocol protocol) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler)).host("127.0.0.1").port(0)
                .protocol(protocol).build().start();
             ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port()).protocol(protocol)
                     .maxFrameSize(CLIENT_LIMIT).retries(2).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            assertThat(calculator.add(1, 2)).isEqualTo(3);
            int callsBefore = handler.calls.get();

            assertThatThrownBy(() -> calculator.echo(payload(CLIENT_LIMIT)))
                    .isInstanceOfSatisfying(ThriftTransportFailureException.class, e -> {
                        assertThat(e.getType()).isEqualTo(TTransportException.CORRUPTED_DATA);
                        assertThat(e.requestMayHaveReachedServer()).isFalse();
                        assertThat(e).hasMessageContaining("exceeds the maximum frame size of " + CLIENT_LIMIT);
                    });

            assertThat(client.idleConnections()).as("the unused connection is back in the pool").isEqualTo(1);
            assertThat(calculator.add(2, 3)).isEqualTo(5);
            assertThat(handler.calls.get()).as("only the two sums reached the server").isEqualTo(callsBefore + 1);
            assertThat(server.openConnections()).isEqualTo(1);
        }
    }

    @AfterAll
    void report() {
        millis.forEach((pairing, ms) -> LoggerFactory.getLogger(getClass()).info("{} ms for {}, rejections {}",
                ms, pairing, rejections.getOrDefault(pairing, Set.of())));
    }

    /**
     * Runs the calls through the oracle, checked against the measured frame sizes, then through every
     * other pairing ({@code lighter} for the strategies but the default), compared with the oracle.
     */
    private void compareAllPairings(String test, ThriftProtocol protocol, int serverLimit, int clientLimit, List<Call> calls,
                                    List<Call> lighter) throws Exception {
        Map<Call, Throwable> oracle;
        try (Server server = libthriftServer(protocol, serverLimit)) {
            closesOnAnOverLimitLength(server, serverLimit);
            oracle = run(test, "libthrift -> libthrift", protocol, libthriftClient(server, protocol, clientLimit), calls, null);
            for (Call call : calls) {
                // Under half the limit a call fits whatever its overhead, and measuring every 4 MiB echo costs.
                boolean fits = call.size() < clientLimit / 2 || largestFrame(protocol, call) <= clientLimit;
                assertThat(oracle.get(call) == null).as("the oracle accepts %s", call).isEqualTo(fits);
            }
            run(test, "ours -> libthrift", protocol, ourClient(server, protocol, clientLimit), calls, oracle);
        }
        for (IoStrategy strategy : STRATEGIES) {
            try (Server server = ourServer(protocol, serverLimit, strategy)) {
                closesOnAnOverLimitLength(server, serverLimit);
                List<Call> sized = strategy == null ? calls : lighter;
                String name = "ours/" + (strategy == null ? "default" : strategy);
                run(test, "libthrift -> " + name, protocol, libthriftClient(server, protocol, clientLimit), sized, oracle);
                run(test, "ours -> " + name, protocol, ourClient(server, protocol, clientLimit), sized, oracle);
            }
        }
    }

    /**
     * libthrift's server closes a connection as soon as it reads a length over its limit; a server
     * that waited for the body would still reject the frame, but only after buffering it.
     */
    private static void closesOnAnOverLimitLength(Server server, int limit) throws IOException {
        if (limit == LIMIT) {
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                new DataOutputStream(socket.getOutputStream()).writeInt(limit + 1);
                await("the server on port " + server.port() + " closes after the length " + (limit + 1))
                        .pollDelay(Duration.ZERO).atMost(Duration.ofSeconds(5)).until(() -> RawFrames.closedByServer(socket));
            }
        }
    }

    /** One pairing: all calls on one client; returns each call's failure, null where it succeeded. */
    private Map<Call, Throwable> run(String test, String pairing, ThriftProtocol protocol, Caller caller, List<Call> calls,
                                     Map<Call, Throwable> oracle) throws Exception {
        String name = protocol + " " + test + ": " + pairing;
        long start = System.nanoTime();
        Map<Call, Throwable> outcomes = new HashMap<>();
        List<String> wrong = new ArrayList<>();
        try (caller) {
            for (Call call : calls) {
                String problem = null;
                Throwable failure = null;
                try {
                    problem = check(caller.calculator().get(), call);
                } catch (TException e) {
                    failure = e;
                    rejections.computeIfAbsent(name, k -> new TreeSet<>()).add(describe(e));
                    // A timeout would mean the rejection hung where it should fail at once.
                    boolean typed = e instanceof TTransportException t && t.getType() != TTransportException.TIMED_OUT
                            && (pairing.startsWith("libthrift") || e instanceof ThriftTransportFailureException);
                    problem = typed ? null : "untyped or late rejection " + describe(e);
                    caller.recover().call();
                    try {
                        problem = caller.calculator().get().add(1, 2) == 3 ? problem : "the next call got a wrong sum";
                    } catch (TException next) {
                        problem = "the next call failed: " + describe(next);
                    }
                }
                outcomes.put(call, failure);
                if (oracle != null && (oracle.get(call) == null) != (failure == null)) {
                    problem = failure == null ? "accepted where libthrift rejected" : "rejected (" + describe(failure) + ") where libthrift accepted";
                }
                if (problem != null) {
                    wrong.add(call + " [largest frame " + largestFrame(protocol, call) + "]: " + problem);
                }
            }
        }
        millis.merge(name, (System.nanoTime() - start) / 1_000_000, Long::sum);
        assertThat(wrong).as(name).isEmpty();
        return outcomes;
    }

    /** Makes the call and returns what differs from the expected answer, or null. */
    private static String check(Calculator.Iface calculator, Call call) throws TException {
        int size = call.size();
        switch (call.kind()) {
            case REPLY:
                SharedStruct struct = calculator.getStruct(size);
                return struct.equals(struct(size)) ? null : "got the struct of key " + struct.getKey();
            case REQUEST:
                int sum = calculator.calculate(1, work(size));
                return sum == size + 1 ? null : "got the sum " + sum;
            default:
                ByteBuffer echoed = calculator.echo(payload(size));
                return echoed.equals(payload(size)) ? null
                        : echoed.remaining() + " bytes back, first difference at " + payload(size).mismatch(echoed);
        }
    }

    /** Different bytes for every size, so that the answer to another call never passes. */
    private static ByteBuffer payload(int size) {
        return ByteBuffer.wrap(BYTES, size % 8191, size).slice();
    }

    private static String text(int length) {
        return IntStream.range(0, length).map(i -> 'a' + (BYTES[i + 7] & 15))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }

    private static Work work(int commentLength) {
        return new Work(commentLength, 1, Operation.ADD).setComment(text(commentLength));
    }

    /** getStruct's answer: its key, and as many characters as the key says. */
    private static SharedStruct struct(int key) {
        return new SharedStruct(key, text(key));
    }

    private static String describe(Throwable e) {
        return e.getClass().getSimpleName() + (e instanceof TTransportException t ? "(" + TYPES[t.getType()] + ")" : "");
    }

    /**
     * The call's larger frame, request or reply, as libthrift serializes it with sequence id 1. The
     * compact protocol writes the reply's field id 0 in one byte more than the request's field id 1,
     * and sequence ids above 127 in two bytes, which the few calls per connection of the limit tests
     * never reach.
     */
    private static int largestFrame(ThriftProtocol protocol, Call call) {
        int size = call.size();
        TBase<?, ?>[] messages = switch (call.kind()) {
            case ECHO -> new TBase<?, ?>[] {new Calculator.echo_args(payload(size)), new Calculator.echo_result().setSuccess(payload(size))};
            case REQUEST -> new TBase<?, ?>[] {new Calculator.calculate_args(1, work(size)), new Calculator.calculate_result().setSuccess(size + 1)};
            case REPLY -> new TBase<?, ?>[] {new SharedService.getStruct_args(size), new SharedService.getStruct_result().setSuccess(struct(size))};
        };
        String method = messages[0].getClass().getSimpleName().replace("_args", "");
        int largest = 0;
        for (int i = 0; i < 2; i++) {
            try {
                TMemoryBuffer buffer = new TMemoryBuffer(1024);
                TProtocol out = protocol.factory().getProtocol(buffer);
                out.writeMessageBegin(new TMessage(method, i == 0 ? TMessageType.CALL : TMessageType.REPLY, 1));
                messages[i].write(out);
                out.writeMessageEnd();
                largest = Math.max(largest, buffer.length());
            } catch (TException e) {
                throw new IllegalStateException(e);
            }
        }
        return largest;
    }

    /** The largest size whose call has no frame longer than {@code frame} (varints skip some lengths). */
    private static int sizeForFrame(ThriftProtocol protocol, Kind kind, int frame) {
        int size = Math.max(0, frame - largestFrame(protocol, new Call(kind, 0)));
        while (size > 0 && largestFrame(protocol, new Call(kind, size)) > frame) {
            size--;
        }
        while (largestFrame(protocol, new Call(kind, size + 1)) <= frame) {
            size++;
        }
        return size;
    }

    /** The calculator, whose getStruct(n) answers with a value of n characters: a small request, a reply of any size. */
    private static Calculator.Processor<Calculator.Iface> processor() {
        CalculatorHandler calculator = new CalculatorHandler();
        return new Calculator.Processor<>((Calculator.Iface) Proxy.newProxyInstance(Calculator.Iface.class.getClassLoader(),
                new Class<?>[] {Calculator.Iface.class}, (proxy, method, args) -> method.getName().equals("getStruct")
                        ? struct((int) args[0]) : method.invoke(calculator, args)));
    }

    private static Server libthriftServer(ThriftProtocol protocol, int limit) throws Exception {
        LibthriftServer server = LibthriftServer.start(processor(), args -> args.protocolFactory(protocol.factory())
                .transportFactory(new TFramedTransport.Factory(limit)).minWorkerThreads(2).maxWorkerThreads(32));
        return new Server(server.port(), server::close);
    }

    private static Server ourServer(ThriftProtocol protocol, int limit, IoStrategy strategy) {
        ThriftServerBuilder builder = ThriftServer.builder(processor()).host("127.0.0.1").port(0).protocol(protocol)
                .maxFrameSize(limit).stopDeadline(Duration.ofSeconds(1));
        ThriftServer server = (strategy == null ? builder : builder.ioStrategy(strategy)).build().start();
        return new Server(server.port(), server::close);
    }

    /** Our client goes on as it is after a rejection: its pool must replace what failed. */
    private static Caller ourClient(Server server, ThriftProtocol protocol, int limit) {
        ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port()).protocol(protocol)
                .maxFrameSize(limit).readTimeout(Duration.ofSeconds(5)).build();
        Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
        return new Caller(() -> calculator, () -> null, client);
    }

    /** libthrift's client is unusable after a transport failure, so it reconnects, as its users must. */
    private static Caller libthriftClient(Server server, ThriftProtocol protocol, int limit) throws Exception {
        TTransport[] transport = new TTransport[1];
        Calculator.Client[] client = new Calculator.Client[1];
        Callable<?> connect = () -> {
            if (transport[0] != null) {
                transport[0].close();
            }
            transport[0] = new TFramedTransport(new TSocket("127.0.0.1", server.port(), 5000), limit);
            transport[0].open();
            return client[0] = new Calculator.Client(protocol.factory().getProtocol(transport[0]));
        };
        connect.call();
        return new Caller(() -> client[0], connect, () -> transport[0].close());
    }
}
