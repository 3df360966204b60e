package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.junit.jupiter.api.Test;

/** Retries, rotation and the health monitor, with real servers stopped and restarted. */
class FailoverTest {

    @Test
    void oneOfTwoServersStoppedAndRestartedUnderLoad() throws Exception {
        CalculatorHandler handlerA = new CalculatorHandler();
        CalculatorHandler handlerB = new CalculatorHandler();
        ThriftServer serverA = start(handlerA, 0);
        int portA = serverA.port();
        ThriftServer serverB = start(handlerB, 0);
        ExecutorService load = Executors.newFixedThreadPool(4);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger succeeded = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (ThriftClient client = ThriftClient.builder()
                .server("127.0.0.1", portA).server("127.0.0.1", serverB.port())
                .healthCheckInterval(Duration.ofMillis(100)).build()) {
            Calculator.Iface calculator = client.proxyBuilder(Calculator.Iface.class).idempotent("add").build();
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                workers.add(load.submit(() -> {
                    while (running.get()) {
                        try {
                            assertThat(calculator.add(1, 2)).isEqualTo(3);
                            succeeded.incrementAndGet();
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }
                }));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> handlerA.calls.get() > 100 && handlerB.calls.get() > 100);

            serverA.stop(Duration.ofSeconds(5));
            await().atMost(Duration.ofSeconds(10)).until(() -> !client.serversInRotation().contains("127.0.0.1:" + portA));
            int onBAfterStop = handlerB.calls.get();
            await().atMost(Duration.ofSeconds(10)).until(() -> handlerB.calls.get() > onBAfterStop + 200);

            CalculatorHandler restartedHandler = new CalculatorHandler();
            ThriftServer restarted = start(restartedHandler, portA);
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> client.serversInRotation().size() == 2);
                await().atMost(Duration.ofSeconds(10)).until(() -> restartedHandler.calls.get() > 100);
            } finally {
                running.set(false);
                for (Future<?> worker : workers) {
                    worker.get();
                }
                restarted.close();
            }
            assertThat(failures).isEmpty();
            assertThat(succeeded.get()).isPositive();
        } finally {
            running.set(false);
            load.shutdownNow();
            serverB.close();
        }
    }

    @Test
    void connectFailuresAreRetriedOnTheNextServerEvenForNonIdempotentCalls() throws Exception {
        int deadPort;
        try (ServerSocket reserved = new ServerSocket(0)) {
            deadPort = reserved.getLocalPort();
        }
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = start(handler, 0);
             ThriftClient client = ThriftClient.builder()
                     .server("127.0.0.1", deadPort).server("127.0.0.1", server.port())
                     .healthCheckInterval(Duration.ofSeconds(30)).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            for (int i = 0; i < 10; i++) {
                assertThat(calculator.add(i, 1)).isEqualTo(i + 1);
            }
            assertThat(client.serversInRotation()).containsExactly("127.0.0.1:" + server.port());
        }
    }

    @Test
    void aSentRequestIsRetriedOnlyWhenTheMethodIsIdempotent() throws Exception {
        CalculatorHandler slow = new CalculatorHandler(2500);
        CalculatorHandler fast = new CalculatorHandler();
        try (ThriftServer slowServer = start(slow, 0);
             ThriftServer fastServer = start(fast, 0);
             ThriftClient client = ThriftClient.builder()
                     .server("127.0.0.1", slowServer.port()).server("127.0.0.1", fastServer.port())
                     .readTimeout(Duration.ofMillis(1200)).build()) {
            Calculator.Iface plain = client.proxy(Calculator.Iface.class);
            Calculator.Iface retrying = client.proxyBuilder(Calculator.Iface.class).idempotent("add").build();

            // Round robin alternates, so of two calls one reaches each server; the slow one times out
            // and, not being idempotent, is not run again on the fast server.
            List<ThriftTransportFailureException> failures = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                try {
                    assertThat(plain.add(1, 2)).isEqualTo(3);
                } catch (ThriftTransportFailureException e) {
                    failures.add(e);
                }
            }
            assertThat(failures).singleElement().satisfies(e -> {
                assertThat(e.requestMayHaveReachedServer()).isTrue();
                assertThat(e.server()).isEqualTo("127.0.0.1:" + slowServer.port());
                assertThat(e).hasMessageContaining("127.0.0.1:" + slowServer.port());
            });
            assertThat(fast.calls.get()).isEqualTo(1);

            // Marked idempotent, the timed-out call moves on to the fast server and succeeds.
            for (int i = 0; i < 2; i++) {
                assertThat(retrying.add(1, 2)).isEqualTo(3);
            }
            assertThat(fast.calls.get()).isEqualTo(3);
            assertThat(slow.calls.get()).isEqualTo(2);
        }
    }

    private static ThriftServer start(CalculatorHandler handler, int port) {
        return ThriftServer.builder(new Calculator.Processor<>(handler)).host("127.0.0.1").port(port)
                .workerThreads(8).build().start();
    }
}
