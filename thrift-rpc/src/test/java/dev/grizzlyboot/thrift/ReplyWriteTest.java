package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Replies too large for the socket to take at once, to clients that read them late or not at all,
 * arrive whole and in order, hold up no other connection, and are not cut off by a stop. On plain
 * TCP replies bypass the filter chain, so this checks that path's queueing and graceful close.
 */
class ReplyWriteTest {
    /** Several times what a client socket with {@link #SMALL_RECEIVE_BUFFER} and the server's send buffer hold. */
    private static final int LARGE = 3 << 20;
    /** Fixed, so the kernel does not grow it to tens of megabytes and take whole replies at once. */
    private static final int SMALL_RECEIVE_BUFFER = 64 * 1024;

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void largePipelinedRepliesArriveWholeAndInOrder(IoStrategy strategy) throws Exception {
        int calls = 6;
        try (ThriftServer server = server(strategy);
             Socket socket = slowReader(server)) {
            CompletableFuture<Void> writer = RawFrames.pipelineEchoRequests(socket, calls, ReplyWriteTest::payload);

            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                for (int seqId = 1; seqId <= calls; seqId++) {
                    assertEchoReply(socket, seqId);
                }
            });
            writer.get(5, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void aClientThatStopsReadingHoldsUpOnlyItsOwnConnection(IoStrategy strategy) throws Exception {
        int calls = 4;
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = server(strategy, handler);
             Socket stalled = slowReader(server)) {
            CompletableFuture<Void> writer = RawFrames.pipelineEchoRequests(stalled, calls, ReplyWriteTest::payload);
            // A reply is made though the client has read none: it waits in the server's write queue,
            // and, being larger than the server's bound on that queue, stops it reading the rest.
            await().atMost(Duration.ofSeconds(20)).until(() -> handler.calls.get() >= 1);

            try (TTransport transport = new TFramedTransport(new TSocket(new TConfiguration(),
                    "127.0.0.1", server.port(), 5_000))) {
                transport.open();
                Calculator.Client other = new Calculator.Client(new TBinaryProtocol(transport));
                assertThat(other.add(2, 3)).isEqualTo(5);
                assertThat(other.echo(ByteBuffer.wrap(payload(9)))).isEqualTo(ByteBuffer.wrap(payload(9)));
            }

            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                for (int seqId = 1; seqId <= calls; seqId++) {
                    assertEchoReply(stalled, seqId);
                }
            });
            writer.get(5, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void aStopLetsALargeReplyTheClientHasNotReadYetArriveWhole(IoStrategy strategy) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        ThriftServer server = server(strategy, handler);
        try (Socket socket = slowReader(server)) {
            socket.getOutputStream().write(RawFrames.echoRequest(1, payload(1)));
            await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.get() == 1);

            CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> server.stop(Duration.ofSeconds(30)));

            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertEchoReply(socket, 1));
            assertThat(RawFrames.readReplyLength(socket)).isEqualTo(-1);
            assertThat(stopped.get(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            server.close();
        }
    }

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void aLargeReplyToALibthriftClientArrivesWhole(IoStrategy strategy) throws Exception {
        try (ThriftServer server = server(strategy);
             TTransport transport = new TFramedTransport(new TSocket(new TConfiguration(),
                     "127.0.0.1", server.port(), 30_000))) {
            transport.open();
            Calculator.Client client = new Calculator.Client(new TBinaryProtocol(transport));
            for (int i = 1; i <= 3; i++) {
                assertThat(client.echo(ByteBuffer.wrap(payload(i)))).isEqualTo(ByteBuffer.wrap(payload(i)));
            }
        }
    }

    private static ThriftServer server(IoStrategy strategy) throws Exception {
        return server(strategy, new CalculatorHandler());
    }

    private static ThriftServer server(IoStrategy strategy, CalculatorHandler handler) throws Exception {
        return ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).workerThreads(4)
                .build().start();
    }

    private static Socket slowReader(ThriftServer server) throws Exception {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(SMALL_RECEIVE_BUFFER);
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
        return socket;
    }

    /** A payload whose bytes depend on the call, so a reply of another call or a shifted one shows. */
    private static byte[] payload(int seqId) {
        byte[] payload = new byte[LARGE + seqId];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31 + seqId);
        }
        return payload;
    }

    private static void assertEchoReply(Socket socket, int seqId) throws Exception {
        RawFrames.Reply reply = RawFrames.readBinaryReply(socket);
        assertThat(reply.seqId()).isEqualTo(seqId);
        Calculator.echo_result result = new Calculator.echo_result();
        result.read(reply.result());
        assertThat(Arrays.equals(result.getSuccess(), payload(seqId))).as("payload of call %d", seqId).isTrue();
    }
}
