package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.Work;
import dev.grizzlyboot.thrift.tutorial.shared.SharedStruct;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Blocked handlers must not stop the selector from serving other connections. */
class ThreadingTest {

    @ParameterizedTest
    @EnumSource(value = IoStrategy.class, names = {"WORKER_THREAD", "CONNECTION_QUEUE", "CONNECTION_READER", "LEADER_FOLLOWER"})
    void blockedHandlersDoNotStallOtherConnections(IoStrategy strategy) throws Exception {
        BlockingPing handler = new BlockingPing(2);
        // One selector thread: if a handler ran on it, the add below could never be read.
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try (ThriftServer server = start(handler, strategy);
             ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port()).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            List<CompletableFuture<Void>> pings = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                pings.add(CompletableFuture.runAsync(() -> {
                    try {
                        calculator.ping();
                    } catch (TException e) {
                        throw new IllegalStateException(e);
                    }
                }, callers));
            }
            assertThat(handler.blocked.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(calculator.add(1, 2)).isEqualTo(3);

            handler.release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> pings.stream().allMatch(CompletableFuture::isDone));
            pings.forEach(CompletableFuture::join);
        } finally {
            handler.release.countDown();
            callers.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(value = IoStrategy.class, names = {"WORKER_THREAD", "CONNECTION_QUEUE", "CONNECTION_READER", "LEADER_FOLLOWER"})
    void libthriftClientsKeepBeingServedWhileAHandlerBlocks(IoStrategy strategy) throws Exception {
        BlockingPing handler = new BlockingPing(1);
        ExecutorService blockedCaller = Executors.newSingleThreadExecutor();
        try (ThriftServer server = start(handler, strategy);
             TTransport blockedConnection = open(server.port());
             TTransport otherConnection = open(server.port())) {
            Calculator.Client blocked = new Calculator.Client(new TBinaryProtocol(blockedConnection));
            CompletableFuture<Void> ping = CompletableFuture.runAsync(() -> {
                try {
                    blocked.ping();
                } catch (TException e) {
                    throw new IllegalStateException(e);
                }
            }, blockedCaller);
            assertThat(handler.blocked.await(10, TimeUnit.SECONDS)).isTrue();

            Calculator.Client other = new Calculator.Client(new TBinaryProtocol(otherConnection));
            assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
                for (int i = 0; i < 100; i++) {
                    assertThat(other.add(i, 1)).isEqualTo(i + 1);
                }
            });
            assertThat(ping).isNotDone();

            handler.release.countDown();
            ping.get(10, TimeUnit.SECONDS);
        } finally {
            handler.release.countDown();
            blockedCaller.shutdownNow();
        }
    }

    /** One selector thread, so a handler that ran on it would stop all reading. */
    private static ThriftServer start(Calculator.Iface handler, IoStrategy strategy) {
        return ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).selectorThreads(1).workerThreads(8)
                .build().start();
    }

    private static TTransport open(int port) throws TException {
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", port, 10_000));
        transport.open();
        return transport;
    }

    /** A calculator whose {@code ping} blocks until released; {@code add} answers at once. */
    private static final class BlockingPing implements Calculator.Iface {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch blocked;

        BlockingPing(int blockedPings) {
            blocked = new CountDownLatch(blockedPings);
        }

        @Override
        public void ping() {
            blocked.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public int add(int a, int b) {
            return a + b;
        }

        @Override
        public int calculate(int logid, Work w) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ByteBuffer echo(ByteBuffer payload) {
            return payload;
        }

        @Override
        public void zip() {
        }

        @Override
        public SharedStruct getStruct(int key) {
            return null;
        }
    }
}
