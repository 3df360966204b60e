package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;

/**
 * The connection-reader strategy's own hazards: a connection moving between its selector thread
 * and a worker many times, with frames split across the moves, and fewer workers than connections.
 */
class ConnectionReaderTest {
    /** Longer than the time a worker waits for a connection's next request before giving it back. */
    private static final Duration IDLE_GAP = Duration.ofMillis(15);

    @Test
    void repliesStayMatchedWhileAConnectionMovesBetweenSelectorAndWorker() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = server(handler, 4);
             Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            int seqId = 1;
            int expected = 1;
            byte[] carried = new byte[0];
            // A worker that holds the connection opens a selector of its own at its first hold and
            // keeps it until the server stops, so the epoll instances show whether one ever held it.
            boolean linux = Files.isDirectory(Path.of("/proc/self/fd"));
            long beforeHolding = linux ? epollInstances() : 0;
            // A burst that arrives before the worker has ended the call before it joins that worker's
            // run, which was not asked to hold; so rounds go on, up to a bound, until one held.
            for (int round = 0; round < 40 || linux && round < 400 && epollInstances() <= beforeHolding; round++) {
                if (carried.length > 0) {
                    // The rest of the last round's frame, read by the selector thread after the idle
                    // gap; its reply just before the burst makes the burst's worker hold the
                    // connection, as a worker takes one only from a client that calls again soon.
                    out.write(carried);
                    out.flush();
                    assertReply(socket, expected++);
                }
                ByteArrayOutputStream burst = new ByteArrayOutputStream();
                for (int i = 0; i < 9; i++, seqId++) {
                    burst.write(RawFrames.addRequest(seqId, seqId, 1000));
                }
                // The burst ends inside a frame, at a different byte each round (in its length too),
                // so the connection changes hands while half a frame has been read.
                byte[] last = RawFrames.addRequest(seqId++, seqId - 1, 1000);
                int split = 1 + round % (last.length - 1);
                burst.write(last, 0, split);
                carried = Arrays.copyOfRange(last, split, last.length);
                out.write(burst.toByteArray());
                out.flush();
                for (; expected < seqId - 1; expected++) {
                    assertReply(socket, expected);
                }
                // An idle gap, until the worker holding the connection has given it back.
                await().pollDelay(IDLE_GAP).pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10))
                        .until(() -> !aWorkerHoldsAConnection());
            }
            out.write(carried);
            out.flush();
            assertReply(socket, expected);
            assertThat(handler.calls.get()).isEqualTo(seqId - 1);
            if (linux) {
                assertThat(epollInstances()).as("epoll instances: a worker held the connection on a selector of its own")
                        .isGreaterThan(beforeHolding);
            }
        }
    }

    /**
     * Requests written in small uneven pieces while replies are read, on more connections than
     * workers: the first connections may be held by workers, which hand them back mid-frame as more
     * connections open and outnumber the workers; from then on the selector thread reads them all.
     */
    @Test
    void repliesStayMatchedWhenManyConnectionsPipelineInSmallPieces() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        int connections = 6;
        int calls = 1500;
        ExecutorService clients = Executors.newFixedThreadPool(2 * connections);
        try (ThriftServer server = server(handler, 3)) {
            List<CompletableFuture<Void>> readers = new ArrayList<>();
            List<Socket> sockets = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                Socket socket = new Socket("127.0.0.1", server.port());
                socket.setTcpNoDelay(true);
                sockets.add(socket);
                Random random = new Random(c);
                CompletableFuture.runAsync(() -> writeInPieces(socket, calls, random), clients);
                readers.add(CompletableFuture.runAsync(() -> {
                    try {
                        for (int seqId = 1; seqId <= calls; seqId++) {
                            assertReply(socket, seqId);
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, clients));
            }
            try {
                assertTimeoutPreemptively(Duration.ofSeconds(60),
                        () -> CompletableFuture.allOf(readers.toArray(CompletableFuture[]::new)).get());
            } finally {
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
            assertThat(handler.calls.get()).isEqualTo(connections * calls);
        } finally {
            clients.shutdownNow();
        }
    }

    private static void writeInPieces(Socket socket, int calls, Random random) {
        try {
            ByteArrayOutputStream requests = new ByteArrayOutputStream();
            for (int seqId = 1; seqId <= calls; seqId++) {
                requests.write(RawFrames.addRequest(seqId, seqId, 1000));
            }
            byte[] all = requests.toByteArray();
            OutputStream out = socket.getOutputStream();
            for (int from = 0; from < all.length; ) {
                int piece = Math.min(all.length - from, 1 + random.nextInt(120));
                out.write(all, from, piece);
                out.flush();
                from += piece;
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aBlockedHandlerAndMoreConnectionsThanWorkersStillServeEveryConnection() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        int connections = 8;
        ExecutorService callers = Executors.newFixedThreadPool(connections + 1);
        try (ThriftServer server = server(handler, 2);
             TTransport blockedConnection = open(server.port())) {
            Calculator.Client blocked = new Calculator.Client(new TBinaryProtocol(blockedConnection));
            CompletableFuture<Integer> blockedCall = CompletableFuture.supplyAsync(() -> add(blocked, CalculatorHandler.BLOCK, 0), callers);
            await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.get() == 1);

            List<CompletableFuture<Void>> others = addOnConnections(server.port(), connections, 200, callers);
            assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> CompletableFuture.allOf(others.toArray(CompletableFuture[]::new)).get());
            assertThat(blockedCall).isNotDone();

            handler.release();
            assertThat(blockedCall.get(10, TimeUnit.SECONDS)).isZero();
        } finally {
            handler.release();
            callers.shutdownNow();
        }
    }

    @Test
    void aLengthAboveTheMaximumRightAfterACallClosesTheConnection() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(IoStrategy.CONNECTION_READER).maxFrameSize(1024)
                .build().start();
             Socket socket = new Socket("127.0.0.1", server.port())) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.write(RawFrames.addRequest(1, 1, 1000));
            assertReply(socket, 1);
            // Sent at once, so that it usually reaches the worker still holding the connection.
            out.writeInt(1025);
            out.flush();
            await().atMost(Duration.ofSeconds(5)).until(() -> RawFrames.closedByServer(socket));
            await().atMost(Duration.ofSeconds(5)).until(() -> server.openConnections() == 0);
        }
    }

    @Test
    void aStopClosesAConnectionAWorkerHolds() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        ThriftServer server = server(handler, 4);
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write(RawFrames.addRequest(1, 1, 1000));
            assertReply(socket, 1);

            assertThat(server.stop(Duration.ofSeconds(10))).isTrue();

            assertThat(RawFrames.readReplyLength(socket)).isEqualTo(-1);
            assertThatThrownBy(() -> new Socket("127.0.0.1", server.port()).close()).isInstanceOf(Exception.class);
        }
    }

    /**
     * Workers wait on selectors kept open between takes; a stop closes them, so a server started and
     * stopped leaves no epoll instance behind.
     */
    @Test
    void aStopClosesTheSelectorsWorkersWaitedOn() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "counts epoll instances in Linux's /proc/self/fd");
        long before = epollInstances();
        CalculatorHandler handler = new CalculatorHandler();
        int connections = 12;
        ThriftServer server = server(handler, connections);
        ExecutorService callers = Executors.newFixedThreadPool(connections);
        try {
            List<CompletableFuture<Void>> calls = addOnConnections(server.port(), connections, 300, callers);
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            // The server's own selector thread has one; workers that held connections left theirs open.
            assertThat(epollInstances()).isGreaterThanOrEqualTo(before + 3);
        } finally {
            callers.shutdownNow();
            assertThat(server.stop(Duration.ofSeconds(10))).isTrue();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> epollInstances() <= before);
    }

    /**
     * With more connections than workers no worker holds a connection (the ones not held would wait
     * for the crowded selector threads); once there are no more connections than workers, one does.
     * A worker that holds a connection waits on a selector of its own, opened at its first hold, so
     * the epoll instances of the process say whether any worker held one.
     */
    @Test
    void workersHoldConnectionsOnlyWhileThereAreNoMoreConnectionsThanWorkers() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "counts epoll instances in Linux's /proc/self/fd");
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = server(handler, 2);
             TTransport busy = open(server.port());
             TTransport idle = open(server.port());
             TTransport third = open(server.port())) {
            Calculator.Client busyClient = new Calculator.Client(new TBinaryProtocol(busy));
            assertThat(add(new Calculator.Client(new TBinaryProtocol(idle)), 1, 1)).isEqualTo(2);
            assertThat(add(new Calculator.Client(new TBinaryProtocol(third)), 1, 2)).isEqualTo(3);
            assertThat(add(busyClient, 1, 3)).isEqualTo(4);
            long noReaderSelectors = epollInstances();

            for (int i = 0; i < 300; i++) {
                assertThat(busyClient.add(i, 1)).isEqualTo(i + 1);
            }
            assertThat(epollInstances()).as("epoll instances after calls on one of three connections, two workers")
                    .isLessThanOrEqualTo(noReaderSelectors);

            third.close();
            await().atMost(Duration.ofSeconds(5)).until(() -> server.openConnections() == 2);
            // Counted again just before, so that a selector another test left closing cannot hide the new one.
            long beforeHolding = epollInstances();
            // A call that arrives before the worker has ended the one before joins that worker's run
            // without a take, so calls go on, up to a bound, until a worker held the connection.
            for (int i = 0; i < 300 || i < 3000 && epollInstances() <= beforeHolding; i++) {
                assertThat(busyClient.add(i, 2)).isEqualTo(i + 2);
            }
            assertThat(epollInstances()).as("epoll instances after calls on one of two connections, two workers")
                    .isGreaterThan(beforeHolding);
        }
    }

    /**
     * A worker holding a connection whose client never pauses gives it back as soon as another
     * connection's call needs a worker and none is free; otherwise that call would wait for as
     * long as the busy client keeps calling.
     */
    @Test
    void aWorkerHoldingABusyConnectionGivesItBackWhenAnotherConnectionNeedsTheOnlyWorker() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        ExecutorService callers = Executors.newSingleThreadExecutor();
        AtomicBoolean stop = new AtomicBoolean();
        try (ThriftServer server = server(handler, 1);
             TTransport busy = open(server.port())) {
            Calculator.Client busyClient = new Calculator.Client(new TBinaryProtocol(busy));
            CompletableFuture<Integer> busyCalls = CompletableFuture.supplyAsync(() -> {
                int calls = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!stop.get() && System.nanoTime() < deadline) {
                    assertThat(add(busyClient, calls, 1)).isEqualTo(calls + 1);
                    calls++;
                }
                return calls;
            }, callers);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1))
                    .until(ConnectionReaderTest::aWorkerHoldsAConnection);

            try (TTransport other = open(server.port())) {
                Calculator.Client otherClient = new Calculator.Client(new TBinaryProtocol(other));
                int callsBefore = handler.calls.get();
                int answer = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> otherClient.add(40, 2));
                int busyCallsMeanwhile = handler.calls.get() - callsBefore - 1;
                assertThat(answer).isEqualTo(42);
                // Handed over after the busy connection's call in progress: a few dozen of its calls here;
                // kept, it would be handed over only when the busy client happens to pause for the idle time.
                assertThat(busyCallsMeanwhile).as("calls the busy client made while the other call waited").isLessThan(1000);
            }
            assertThat(busyCalls).as("the busy client was still calling when the other call was answered").isNotDone();
            stop.set(true);
            assertThat(busyCalls.get(10, TimeUnit.SECONDS)).isPositive();
        } finally {
            stop.set(true);
            callers.shutdownNow();
        }
    }

    /** True while a worker thread is inside the strategy's hold of a connection (reading, running or giving it back). */
    private static boolean aWorkerHoldsAConnection() {
        return Thread.getAllStackTraces().values().stream().flatMap(Arrays::stream)
                .anyMatch(frame -> frame.getClassName().equals("dev.grizzlyboot.thrift.transport.ThriftServerFilter")
                        && frame.getMethodName().equals("keepReading"));
    }

    /** Opens {@code connections} connections on {@code callers}, each making {@code calls} checked {@code add} calls. */
    private static List<CompletableFuture<Void>> addOnConnections(int port, int connections, int calls,
                                                                  ExecutorService callers) {
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            int offset = c * 1000;
            all.add(CompletableFuture.runAsync(() -> {
                try (TTransport transport = open(port)) {
                    Calculator.Client client = new Calculator.Client(new TBinaryProtocol(transport));
                    for (int i = 0; i < calls; i++) {
                        assertThat(client.add(offset, i)).isEqualTo(offset + i);
                    }
                } catch (TException e) {
                    throw new IllegalStateException(e);
                }
            }, callers));
        }
        return all;
    }

    private static long epollInstances() throws IOException {
        try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
            return descriptors.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().contains("eventpoll");
                } catch (IOException e) {
                    return false; // closed while listed
                }
            }).count();
        }
    }

    private static void assertReply(Socket socket, int seqId) throws Exception {
        RawFrames.Reply reply = RawFrames.readBinaryReply(socket);
        Calculator.add_result result = new Calculator.add_result();
        result.read(reply.result());
        assertThat(reply.seqId()).isEqualTo(seqId);
        assertThat(result.getSuccess()).isEqualTo(seqId + 1000);
    }

    private static int add(Calculator.Client client, int a, int b) {
        try {
            return client.add(a, b);
        } catch (TException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ThriftServer server(CalculatorHandler handler, int workers) {
        return ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(IoStrategy.CONNECTION_READER).selectorThreads(1)
                .workerThreads(workers).build().start();
    }

    private static TTransport open(int port) throws TException {
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", port, 10_000));
        transport.open();
        return transport;
    }
}
