package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.DataOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Malformed, oversized, partial and abandoned input: each closes only the offending connection.
 * Subclasses run the same input against another strategy.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {
    private static final int MAX_FRAME = 1024;
    private static final Duration CLOSED_WITHIN = Duration.ofSeconds(5);

    private final CalculatorHandler handler = new CalculatorHandler();
    private ThriftServer server;

    IoStrategy strategy() {
        return IoStrategy.CONNECTION_QUEUE;
    }

    @BeforeAll
    void start() {
        server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy()).maxFrameSize(MAX_FRAME)
                .idleTimeout(Duration.ofMillis(400)).build().start();
    }

    @AfterAll
    void stop() {
        server.close();
    }

    @AfterEach
    void serverStillServesOthers() throws Exception {
        // A fresh client: a pooled connection idle for longer than the server's 400 ms idle
        // timeout can be closed by the server just as a call is sent on it.
        try (ThriftClient fresh = ThriftClient.builder().server("127.0.0.1", server.port()).build()) {
            assertThat(fresh.proxy(Calculator.Iface.class).add(2, 2)).isEqualTo(4);
        }
    }

    @Test
    void coalescedFramesAreAllAnswered() throws Exception {
        try (Socket socket = connect()) {
            byte[] first = RawFrames.addRequest(1, 1, 2);
            byte[] second = RawFrames.addRequest(2, 3, 4);
            byte[] both = Arrays.copyOf(first, first.length + second.length);
            System.arraycopy(second, 0, both, first.length, second.length);
            socket.getOutputStream().write(both);
            assertThat(RawFrames.readReplyLength(socket)).isPositive();
            assertThat(RawFrames.readReplyLength(socket)).isPositive();
        }
    }

    @Test
    void frameSplitIntoSingleBytesIsAnswered() throws Exception {
        try (Socket socket = connect()) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            for (byte b : RawFrames.addRequest(1, 5, 6)) {
                out.write(b);
                out.flush();
            }
            assertThat(RawFrames.readReplyLength(socket)).isPositive();
        }
    }

    @Test
    void negativeLengthClosesTheConnection() throws Exception {
        assertLengthCloses(-5);
    }

    @Test
    void zeroLengthClosesTheConnection() throws Exception {
        assertLengthCloses(0);
    }

    @Test
    void lengthAboveTheMaximumClosesBeforeTheBodyArrives() throws Exception {
        assertLengthCloses(MAX_FRAME + 1);
    }

    /** The shared server's idle timeout would close a connection waiting for the body too. */
    @Test
    void lengthOneAboveTheMaximumClosesWithoutAnIdleTimeout() throws Exception {
        try (ThriftServer patient = startWithoutIdleTimeout();
             Socket socket = new Socket("127.0.0.1", patient.port())) {
            new DataOutputStream(socket.getOutputStream()).writeInt(MAX_FRAME + 1);
            await().atMost(CLOSED_WITHIN).until(() -> RawFrames.closedByServer(socket));
        }
    }

    @Test
    void hugeLengthClosesBeforeTheBodyArrives() throws Exception {
        assertLengthCloses(Integer.MAX_VALUE);
    }

    @Test
    void frameOfExactlyTheMaximumIsServed() throws Exception {
        // An echo whose payload makes its message exactly the limit: bytes after a message close the connection.
        int overhead = RawFrames.echoRequest(1, new byte[0]).length - 4;
        byte[] request = RawFrames.echoRequest(1, new byte[MAX_FRAME - overhead]);
        assertThat(request).hasSize(4 + MAX_FRAME);
        try (Socket socket = connect()) {
            socket.getOutputStream().write(request);
            assertThat(RawFrames.readReplyLength(socket)).isPositive();
        }
    }

    @Test
    void garbageInsideAFrameClosesTheConnection() throws Exception {
        byte[] garbage = new byte[64];
        new Random(7).nextBytes(garbage);
        garbage[0] = 0x55; // not a strict binary-protocol version
        // The shared server's idle timeout would close a connection left open after the failure too.
        try (ThriftServer patient = startWithoutIdleTimeout();
             Socket socket = new Socket("127.0.0.1", patient.port())) {
            socket.getOutputStream().write(RawFrames.frame(garbage, garbage.length));
            await().atMost(CLOSED_WITHIN).until(() -> RawFrames.closedByServer(socket));
        }
    }

    @Test
    void declaredSizeBeyondTheFrameIsRejectedByTheMessageSizeLimit() throws Exception {
        TMemoryBuffer body = new TMemoryBuffer(64);
        TBinaryProtocol protocol = new TBinaryProtocol(body);
        protocol.writeMessageBegin(new TMessage("echo", TMessageType.CALL, 1));
        protocol.writeStructBegin(null);
        protocol.writeFieldBegin(new org.apache.thrift.protocol.TField("payload", org.apache.thrift.protocol.TType.STRING, (short) 1));
        protocol.writeI32(MAX_FRAME * 100); // claims far more bytes than the frame holds
        try (Socket socket = connect()) {
            socket.getOutputStream().write(RawFrames.frame(body.getArray(), body.length()));
            await().atMost(CLOSED_WITHIN).until(() -> RawFrames.closedByServer(socket));
        }
    }

    @Test
    void halfAFrameThenSilenceIsClosedByTheIdleTimeout() throws Exception {
        try (Socket socket = connect()) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(100);
            out.write(new byte[10]);
            out.flush();
            assertThat(RawFrames.closedByServer(socket)).isFalse();
            await().atMost(CLOSED_WITHIN).until(() -> RawFrames.closedByServer(socket));
        }
    }

    @Test
    void clientThatDisconnectsMidCallDoesNotHurtTheServer() throws Exception {
        int finishedBefore = handler.slowCallsFinished.get();
        try (Socket socket = connect()) {
            socket.getOutputStream().write(RawFrames.addRequest(1, CalculatorHandler.SLEEP, 300));
        }
        await().atMost(CLOSED_WITHIN).until(() -> handler.slowCallsFinished.get() == finishedBefore + 1);
    }

    private void assertLengthCloses(int length) throws Exception {
        try (Socket socket = connect()) {
            new DataOutputStream(socket.getOutputStream()).writeInt(length);
            await().atMost(CLOSED_WITHIN).until(() -> RawFrames.closedByServer(socket));
        }
    }

    /** A server like the shared one that never closes a connection for being idle. */
    private ThriftServer startWithoutIdleTimeout() {
        return ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy()).maxFrameSize(MAX_FRAME)
                .idleTimeout(Duration.ZERO).build().start();
    }

    private Socket connect() throws Exception {
        return new Socket("127.0.0.1", server.port());
    }
}
