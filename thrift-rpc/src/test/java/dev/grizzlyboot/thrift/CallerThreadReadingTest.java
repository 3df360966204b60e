package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The calling thread reads its own reply off the socket. A scripted server on a plain socket sends
 * replies in pieces, stalls halfway, closes idle connections or never answers, and the client
 * must assemble, time out, replace and fail exactly as it would with a selector thread reading.
 */
class CallerThreadReadingTest {
    private ScriptedAddServer server;
    private ThriftClient client;

    @AfterEach
    void close() throws IOException {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aReplySentInPiecesIsAssembledFromSeveralReads() throws Exception {
        Calculator.Iface calculator = clientOf(serve((request, out) -> {
            byte[] reply = request.reply();
            for (int offset = 0; offset < reply.length; offset += 3) {
                // Each flushed piece leaves as its own segment (no Nagle on the scripted socket), so the
                // caller usually gets the frame length and body over several reads; InteropTest's large
                // echo makes several reads certain.
                out.write(reply, offset, Math.min(3, reply.length - offset));
                out.flush();
            }
            return true;
        }), Duration.ofSeconds(10));

        for (int i = 0; i < 3; i++) {
            assertThat(calculator.add(i, 40)).isEqualTo(i + 40);
        }
        assertThat(client.busyConnections() + client.idleConnections()).isEqualTo(1);
    }

    /**
     * The client's first read buffer holds 8 KiB, so a reply frame whose payload is just under or
     * at 8 KiB no longer fits with its 4-byte length: its last bytes need a larger buffer, not a
     * wait for more input into a full one. Echo replies carry 24 bytes around the payload.
     */
    @Test
    void replyFramesEndingJustPastTheFirstReadBufferAreRead() throws Exception {
        try (ThriftServer thriftServer = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).build().start()) {
            client = ThriftClient.builder().server("127.0.0.1", thriftServer.port()).readTimeout(Duration.ofSeconds(1))
                    .retries(0).maxConnections(1).build();
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            for (int framePayload = 8192 - 6; framePayload <= 8192 + 2; framePayload++) {
                byte[] payload = new byte[framePayload - 24];
                payload[payload.length - 1] = (byte) framePayload;
                assertThat(calculator.echo(ByteBuffer.wrap(payload))).isEqualTo(ByteBuffer.wrap(payload));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 1025})
    void aReplyFrameLengthOutsideTheLimitsFailsTheCallAndClosesTheConnection(int length) throws Exception {
        client = ThriftClient.builder().server("127.0.0.1", serve((request, out) -> {
            if (request.connectionIndex() == 0) {
                // Only the length: the client must close without waiting for (or setting space aside for) a body.
                out.write(new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length});
            } else {
                out.write(request.reply());
            }
            return true;
        })).readTimeout(Duration.ofSeconds(10)).retries(0).maxConnections(1).maxFrameSize(1024).build();
        Calculator.Iface calculator = client.proxy(Calculator.Iface.class);

        assertThatThrownBy(() -> calculator.add(1, 2))
                .isInstanceOfSatisfying(ThriftTransportFailureException.class,
                        e -> assertThat(e).hasMessageContaining("reply frame length " + length + " outside 1..1024")
                                .satisfies(refused -> assertThat(refused.getType()).isEqualTo(TTransportException.CORRUPTED_DATA)));
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closedByClient.get() == 1);
        assertThat(calculator.add(3, 4)).isEqualTo(7);
    }

    @Test
    void aFrameRightBehindTheReplyInTheSameReadClosesTheConnectionOnceTheCallHasItsReply() throws Exception {
        Calculator.Iface calculator = clientOf(serve((request, out) -> {
            byte[] reply = request.reply();
            byte[] twice = new byte[reply.length * 2];
            System.arraycopy(reply, 0, twice, 0, reply.length);
            System.arraycopy(reply, 0, twice, reply.length, reply.length);
            // One write, so the reply and the frame no call asked for usually arrive in one read.
            out.write(twice);
            return true;
        }), Duration.ofSeconds(10));

        assertThat(calculator.add(1, 2)).isEqualTo(3);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closedByClient.get() == 1);
        assertThat(calculator.add(3, 4)).isEqualTo(7);
        assertThat(server.requests).hasValue(2);
    }

    @Test
    void aReplyThatStallsHalfwayTimesOutAndTheNextCallGetsAFreshConnection() throws Exception {
        Calculator.Iface calculator = clientOf(serve((request, out) -> {
            byte[] reply = request.reply();
            out.write(reply, 0, request.connectionIndex() == 0 ? reply.length / 2 : reply.length);
            return true;
        }), Duration.ofMillis(300));

        assertThatThrownBy(() -> calculator.add(1, 2))
                .isInstanceOfSatisfying(ThriftTransportFailureException.class,
                        e -> assertThat(e.getType()).isEqualTo(TTransportException.TIMED_OUT));
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closed.get() == 1);
        assertThat(calculator.add(3, 4)).isEqualTo(7);
    }

    @Test
    void anIdleConnectionTheServerClosedIsNotUsedForTheNextCall() throws Exception {
        // add is not idempotent: were the closed connection used, the call would fail, not retry.
        Calculator.Iface calculator = clientOf(serve((request, out) -> {
            out.write(request.reply());
            return request.connectionIndex() != 0;
        }), Duration.ofSeconds(10));

        assertThat(calculator.add(1, 1)).isEqualTo(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closed.get() == 1);
        // No call reads an idle connection; the pool's monitor notices the close by itself.
        await().atMost(Duration.ofSeconds(5)).until(() -> client.idleConnections() == 0);
        assertThat(calculator.add(2, 2)).isEqualTo(4);
        assertThat(server.requests).hasValue(2);
    }

    @Test
    void aCallDoesNotTakeAConnectionTheServerClosedWhileIdleEvenBeforeTheMonitorLooks() throws Exception {
        // add is not idempotent and retries are off: were the closed connection lent, the call would fail.
        Calculator.Iface calculator = clientWithoutMonitor(serve((request, out) -> {
            out.write(request.reply());
            return request.connectionIndex() != 0;
        }));

        assertThat(calculator.add(1, 1)).isEqualTo(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closed.get() == 1);
        assertThat(client.idleConnections()).isEqualTo(1);
        assertThat(calculator.add(2, 2)).isEqualTo(4);
        assertThat(server.requests).hasValue(2);
    }

    @Test
    void aFrameNoCallAskedForArrivingWhileIdleClosesTheConnectionBeforeTheNextCallUsesIt() throws Exception {
        CountDownLatch firstCallReturned = new CountDownLatch(1);
        AtomicInteger strayFrames = new AtomicInteger();
        Calculator.Iface calculator = clientWithoutMonitor(serve((request, out) -> {
            out.write(request.reply());
            if (request.connectionIndex() == 0) {
                // Only once the call has its reply, so the stray frame cannot arrive with it.
                firstCallReturned.await();
                out.write(request.reply());
                strayFrames.incrementAndGet();
            }
            return true;
        }));

        assertThat(calculator.add(1, 2)).isEqualTo(3);
        firstCallReturned.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> strayFrames.get() == 1);
        // Read as the reply to this call, the stray frame would fail it (its sequence id is the last call's).
        assertThat(calculator.add(3, 4)).isEqualTo(7);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closedByClient.get() == 1);
        assertThat(server.requests).hasValue(2);
    }

    /**
     * No call waits to be failed by the refused length, so only closing the connection keeps the
     * next call from finding that length again in front of its reply.
     */
    @Test
    void aFrameLengthOverTheLimitArrivingWhileIdleClosesTheConnectionBeforeTheNextCallUsesIt() throws Exception {
        CountDownLatch firstCallReturned = new CountDownLatch(1);
        AtomicInteger strayLengths = new AtomicInteger();
        Calculator.Iface calculator = clientWithoutMonitor(serve((request, out) -> {
            out.write(request.reply());
            if (request.connectionIndex() == 0) {
                firstCallReturned.await();
                out.write(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
                strayLengths.incrementAndGet();
            }
            return true;
        }));

        assertThat(calculator.add(1, 2)).isEqualTo(3);
        firstCallReturned.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> strayLengths.get() == 1);
        assertThat(calculator.add(3, 4)).isEqualTo(7);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closedByClient.get() == 1);
        assertThat(server.requests).hasValue(2);
    }

    @Test
    void closingTheClientFailsACallWaitingForItsReplyAtOnce() throws Exception {
        Calculator.Iface calculator = clientOf(serve((request, out) -> true),
                Duration.ofMinutes(5));

        CompletableFuture<Integer> call = CompletableFuture.supplyAsync(() -> {
            try {
                return calculator.add(1, 2);
            } catch (TException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> server.requests.get() == 1);
        client.close();

        assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().cause().isInstanceOf(ThriftTransportFailureException.class);
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void virtualAndPlatformThreadsSharingConnectionsEachGetTheirOwnResult() throws Exception {
        try (ThriftServer thriftServer = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).build().start()) {
            client = ThriftClient.builder().server("127.0.0.1", thriftServer.port()).maxConnections(2).build();
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            ExecutorService platform = Executors.newFixedThreadPool(3);
            // Executors.newVirtualThreadPerTaskExecutor() exists from Java 21; this code compiles for 17.
            ExecutorService virtual = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
            try {
                List<Future<Integer>> wrong = new ArrayList<>();
                for (int task = 0; task < 6; task++) {
                    int base = task * 1000;
                    wrong.add((task % 2 == 0 ? platform : virtual).submit(() -> wrongSums(calculator, base)));
                }
                for (Future<Integer> result : wrong) {
                    assertThat(result.get(2, TimeUnit.MINUTES)).isZero();
                }
            } finally {
                platform.shutdownNow();
                virtual.shutdownNow();
            }
        }
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void aVirtualThreadsCallTimesOutLikeAnyOther() throws Exception {
        Calculator.Iface calculator = clientOf(serve((request, out) -> true), Duration.ofMillis(300));
        ExecutorService virtual = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        try {
            Future<Integer> call = virtual.submit(() -> calculator.add(1, 2));
            assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOfSatisfying(ThriftTransportFailureException.class,
                            e -> assertThat(e.getType()).isEqualTo(TTransportException.TIMED_OUT));
        } finally {
            virtual.shutdownNow();
        }
    }

    private static int wrongSums(Calculator.Iface calculator, int base) throws TException {
        int wrong = 0;
        for (int i = 0; i < 200; i++) {
            if (calculator.add(base, i) != base + i) {
                wrong++;
            }
        }
        return wrong;
    }

    private Calculator.Iface clientOf(int port, Duration readTimeout) {
        client = ThriftClient.builder().server("127.0.0.1", port).readTimeout(readTimeout)
                .retries(0).failAfterTimeouts(100).maxConnections(1).build();
        return client.proxy(Calculator.Iface.class);
    }

    /**
     * A client whose monitor has made its one pass (opening the connection) before this returns
     * and makes the next an hour later, so only a call's own look at the connection can find a close.
     */
    private Calculator.Iface clientWithoutMonitor(int port) {
        client = ThriftClient.builder().server("127.0.0.1", port).readTimeout(Duration.ofSeconds(10))
                .retries(0).minConnections(1).maxConnections(1).healthCheckInterval(Duration.ofHours(1)).build();
        await().atMost(Duration.ofSeconds(5)).until(() -> client.idleConnections() == 1);
        return client.proxy(Calculator.Iface.class);
    }

    private int serve(ScriptedAddServer.Script script) throws IOException {
        server = ScriptedAddServer.start(script);
        return server.port();
    }
}
