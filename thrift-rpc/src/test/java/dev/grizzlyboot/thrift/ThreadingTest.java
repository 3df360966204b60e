package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Blocked handlers must not stop the selector from serving other connections. */
class ThreadingTest {

    @ParameterizedTest
    @EnumSource(value = IoStrategy.class, names = {"WORKER_THREAD", "LEADER_FOLLOWER"})
    void blockedHandlersDoNotStallOtherConnections(IoStrategy strategy) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(2);
        CalculatorHandler counting = new CalculatorHandler();
        Calculator.Iface handler = new Calculator.Iface() {
            @Override
            public void ping() throws org.apache.thrift.TException {
                blocked.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public int add(int a, int b) {
                return counting.add(a, b);
            }

            @Override
            public int calculate(int logid, dev.grizzlyboot.thrift.tutorial.Work w) {
                throw new UnsupportedOperationException();
            }

            @Override
            public java.nio.ByteBuffer echo(java.nio.ByteBuffer payload) {
                return payload;
            }

            @Override
            public void zip() {
            }

            @Override
            public dev.grizzlyboot.thrift.tutorial.shared.SharedStruct getStruct(int key) {
                return null;
            }
        };
        // One selector thread: if a handler ran on it, the add below could never be read.
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).selectorThreads(1).workerThreads(8)
                .build().start();
             ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port()).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            List<CompletableFuture<Void>> pings = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                pings.add(CompletableFuture.runAsync(() -> {
                    try {
                        calculator.ping();
                    } catch (org.apache.thrift.TException e) {
                        throw new IllegalStateException(e);
                    }
                }, callers));
            }
            assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(calculator.add(1, 2)).isEqualTo(3);

            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> pings.stream().allMatch(CompletableFuture::isDone));
            pings.forEach(CompletableFuture::join);
        } finally {
            release.countDown();
            callers.shutdownNow();
        }
    }
}
