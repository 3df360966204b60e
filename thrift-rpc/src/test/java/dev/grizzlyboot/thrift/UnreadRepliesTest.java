package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import javax.net.ssl.SSLContext;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftClientBuilder;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.server.ThriftServerBuilder;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.shared.SharedService;
import dev.grizzlyboot.thrift.tutorial.shared.SharedStruct;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client that pipelines requests and does not read the replies cannot make the server queue
 * them without bound: once a connection's write queue is full the server stops reading it, so the
 * client's writes stall, other connections are served, and every reply arrives once it reads.
 */
@Tag("holds-connections")
class UnreadRepliesTest {
    private static final int PAYLOAD = 1 << 20;
    /** 64 MB of replies: far more than the socket buffers and the server's bound together. */
    private static final int CALLS = 64;
    /**
     * Calls the server may have answered while the client reads nothing: the kernel's buffers
     * (up to 4 MB sent on loopback, a 64 KB receive buffer), the server's 1 MB bound and the calls
     * already read when reading stopped, with room to spare; far below {@link #CALLS}.
     */
    private static final int MOST_CALLS_ANSWERED = 24;
    /** The size of a {@code getStruct} reply in {@link #requestsAlreadyReadWaitWhileTheBacklogIsFull}. */
    private static final int LARGE_REPLY = 256 * 1024;
    /** Small requests sent in one write: 100 MB of replies, arriving in one or two reads. */
    private static final int SMALL_CALLS = 400;
    /**
     * Large replies the server may make while the client reads nothing: the kernel's buffers (up to
     * 4 MB sent on loopback, a 64 KB receive buffer) and the 1 MB bound plus one reply, with room to
     * spare; far below {@link #SMALL_CALLS}.
     */
    private static final int MOST_LARGE_REPLIES = 40;
    /** Fixed, so the kernel does not grow it to tens of megabytes and take whole replies at once. */
    private static final int SMALL_RECEIVE_BUFFER = 64 * 1024;
    /** Calls per connection of {@link #slowReadersOnManyConnectionsGetEveryReply}: 24 MB of replies each. */
    private static final int SLOW_CALLS = 96;
    /** Longer than the server takes to make its next reply whenever the bound lets it. */
    private static final Duration STALL = Duration.ofMillis(50);
    /**
     * How long a client reads nothing while the server's answers are counted: unbounded, the
     * server would answer every call well within it (tens of megabytes on loopback).
     */
    static final Duration UNREAD = Duration.ofSeconds(1);

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void aClientThatDoesNotReadItsRepliesIsStoppedUntilItReads(IoStrategy strategy) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = server(strategy, handler).build().start();
             Socket stalled = new Socket()) {
            pipelineWithoutReadingThenRead(server, handler, stalled, null, UNREAD);
        }
    }

    /**
     * A connection held because its client has not taken its replies yet is not idle: the client
     * still has replies to read, and what they hold is bounded. It stays open for two idle
     * timeouts and then delivers every reply.
     */
    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void aClientThatHasNotTakenItsRepliesIsNotIdle(IoStrategy strategy) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = server(strategy, handler).idleTimeout(Duration.ofSeconds(1)).build().start();
             Socket stalled = new Socket()) {
            // Held for at least two seconds, two idle timeouts, before it reads. Not shorter: on a
            // loaded machine a thread of the client or the server may not run for hundreds of
            // milliseconds, and a connection left without a reply waiting is then rightly idle.
            pipelineWithoutReadingThenRead(server, handler, stalled, null, Duration.ofSeconds(2));
        }
    }

    /**
     * Small requests with large replies: the requests already read when the backlog fills must
     * wait, not be answered, so what the server holds stays near the bound however many arrived in
     * one read. The first call's reply is read before the rest are sent, so that with connection
     * readers the worker that ran it usually still holds the connection and reads the rest itself.
     */
    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void requestsAlreadyReadWaitWhileTheBacklogIsFull(IoStrategy strategy) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        SharedService.Iface handler = key -> {
            calls.incrementAndGet();
            return new SharedStruct(key, largeValue(key));
        };
        try (ThriftServer server = ThriftServer.builder(new SharedService.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).workerThreads(4).build().start();
             Socket stalled = new Socket()) {
            stalled.setReceiveBufferSize(SMALL_RECEIVE_BUFFER);
            stalled.connect(new InetSocketAddress("127.0.0.1", server.port()));
            OutputStream out = stalled.getOutputStream();
            out.write(RawFrames.getStructRequest(1, 1));
            assertStruct(RawFrames.readBinaryReply(stalled), 1);

            ByteArrayOutputStream burst = new ByteArrayOutputStream();
            for (int seqId = 2; seqId <= SMALL_CALLS + 1; seqId++) {
                burst.write(RawFrames.getStructRequest(seqId, seqId));
            }
            out.write(burst.toByteArray());
            out.flush();

            await().atMost(Duration.ofSeconds(20)).until(() -> calls.get() > 1);
            // Unbounded, the server would answer all of them (100 MB) within this time.
            await().during(UNREAD).atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(calls.get() - 1).as("calls answered while the client reads nothing")
                            .isLessThanOrEqualTo(MOST_LARGE_REPLIES));

            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                for (int seqId = 2; seqId <= SMALL_CALLS + 1; seqId++) {
                    assertStruct(RawFrames.readBinaryReply(stalled), seqId);
                }
            });
            assertThat(calls.get()).isEqualTo(SMALL_CALLS + 1);
        }
    }

    /**
     * Several clients that read their replies only once the server has stopped answering them, all
     * at once: each connection's backlog fills, reading stops, the client takes what was answered,
     * and reading resumes, five to eight times per connection (30 to 49 a run, every strategy,
     * counted with a temporary counter while writing this test), while the selector thread turns write
     * interest on for the same connections. Every reply must still arrive, whole and in order: a
     * stop that dropped a concurrent write-interest change would leave replies in the write queue
     * with nothing writing them. A stress test: that race is narrow, and
     * {@link #aClientThatHasNotTakenItsRepliesIsNotIdle} is where it showed.
     */
    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void slowReadersOnManyConnectionsGetEveryReply(IoStrategy strategy) throws Exception {
        int connections = 6;
        AtomicIntegerArray answered = new AtomicIntegerArray(connections);
        // Keys and sequence ids are connection * 1000 + call, so each connection's progress shows.
        SharedService.Iface handler = key -> {
            answered.incrementAndGet(key / 1000);
            return new SharedStruct(key, largeValue(key));
        };
        ExecutorService clients = Executors.newFixedThreadPool(connections);
        try (ThriftServer server = ThriftServer.builder(new SharedService.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).workerThreads(4).build().start()) {
            List<Socket> sockets = new ArrayList<>();
            List<CompletableFuture<Void>> readers = new ArrayList<>();
            try {
                for (int c = 0; c < connections; c++) {
                    Socket socket = new Socket();
                    sockets.add(socket);
                    socket.setReceiveBufferSize(SMALL_RECEIVE_BUFFER);
                    socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
                    int connection = c;
                    readers.add(CompletableFuture.runAsync(() -> callAndReadWhenStalled(socket, connection, answered),
                            clients));
                }
                assertTimeoutPreemptively(Duration.ofSeconds(120),
                        () -> CompletableFuture.allOf(readers.toArray(CompletableFuture[]::new)).get());
            } finally {
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /**
     * Sends all of a connection's calls at once, then again and again waits until the server has
     * stopped answering them (nothing new for {@link #STALL}: the bound, or every call answered)
     * and reads and checks what it has answered.
     */
    private static void callAndReadWhenStalled(Socket socket, int connection, AtomicIntegerArray answered) {
        try {
            ByteArrayOutputStream calls = new ByteArrayOutputStream();
            for (int call = 1; call <= SLOW_CALLS; call++) {
                calls.write(RawFrames.getStructRequest(connection * 1000 + call, connection * 1000 + call));
            }
            socket.getOutputStream().write(calls.toByteArray());
            int read = 0;
            while (read < SLOW_CALLS) {
                int[] seen = {-1};
                int ready = await().pollInterval(STALL).atMost(Duration.ofSeconds(30)).until(() -> {
                    int now = answered.get(connection);
                    boolean stalled = now == seen[0];
                    seen[0] = now;
                    return stalled ? now : -1;
                }, now -> now > 0);
                for (; read < ready; read++) {
                    assertStruct(RawFrames.readBinaryReply(socket), connection * 1000 + read + 1);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertStruct(RawFrames.Reply reply, int seqId) throws Exception {
        assertThat(reply.seqId()).isEqualTo(seqId);
        SharedService.getStruct_result result = new SharedService.getStruct_result();
        result.read(reply.result());
        assertThat(result.getSuccess().getKey()).isEqualTo(seqId);
        assertThat(result.getSuccess().getValue()).as("value of call %d", seqId).isEqualTo(largeValue(seqId));
    }

    /** A 256 KB value whose characters depend on the key, so a reply of another call shows. */
    private static String largeValue(int key) {
        char[] value = new char[LARGE_REPLY];
        for (int i = 0; i < value.length; i++) {
            value[i] = (char) ('a' + (i + key) % 26);
        }
        return new String(value);
    }

    /**
     * Connects {@code stalled} with a small receive buffer, pipelines {@link #CALLS} large echo
     * requests on it without reading, checks that the server stops answering them well before the
     * last while another connection is served, then reads every reply and checks it. With
     * {@code tls}, the socket is layered over TLS after connecting. The client reads nothing for
     * at least {@code unread} after the first call is answered.
     */
    static void pipelineWithoutReadingThenRead(ThriftServer server, CalculatorHandler handler, Socket stalled,
                                               SSLContext tls, Duration unread) throws Exception {
        stalled.setReceiveBufferSize(SMALL_RECEIVE_BUFFER);
        stalled.connect(new InetSocketAddress("127.0.0.1", server.port()));
        Socket socket = tls == null ? stalled
                : tls.getSocketFactory().createSocket(stalled, "127.0.0.1", server.port(), true);
        CompletableFuture<Void> writer = RawFrames.pipelineEchoRequests(socket, CALLS, UnreadRepliesTest::payload);

        await().atMost(Duration.ofSeconds(20)).until(() -> handler.calls.get() > 0);
        // Unbounded, the server would answer all 64 calls within this time.
        await().during(unread).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(handler.calls.get()).as("calls answered while the client reads nothing")
                    .isLessThanOrEqualTo(MOST_CALLS_ANSWERED);
            assertThat(writer).as("the client's writes, all taken by the server").isNotDone();
        });

        try (ThriftClient client = otherClient(server, tls)) {
            Calculator.Iface other = client.proxy(Calculator.Iface.class);
            assertThat(other.add(2, 3)).isEqualTo(5);
            assertThat(other.echo(ByteBuffer.wrap(payload(0)))).isEqualTo(ByteBuffer.wrap(payload(0)));
        }

        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int seqId = 1; seqId <= CALLS; seqId++) {
                RawFrames.Reply reply = RawFrames.readBinaryReply(socket);
                assertThat(reply.seqId()).isEqualTo(seqId);
                Calculator.echo_result result = new Calculator.echo_result();
                result.read(reply.result());
                assertThat(Arrays.equals(result.getSuccess(), payload(seqId))).as("payload of call %d", seqId).isTrue();
            }
        });
        writer.get(5, TimeUnit.SECONDS);
    }

    private static ThriftServerBuilder server(IoStrategy strategy, CalculatorHandler handler) {
        return ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).workerThreads(4);
    }

    private static ThriftClient otherClient(ThriftServer server, SSLContext tls) {
        ThriftClientBuilder builder = ThriftClient.builder().server("127.0.0.1", server.port())
                .readTimeout(Duration.ofSeconds(10));
        return (tls == null ? builder : builder.tls(tls, true)).build();
    }

    /** A payload whose bytes depend on the call, so a reply of another call or a shifted one shows. */
    private static byte[] payload(int seqId) {
        byte[] payload = new byte[PAYLOAD + seqId];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31 + seqId);
        }
        return payload;
    }
}
