package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * kill -9 and SIGSTOP of a real server process (a child JVM) while four threads call two servers:
 * the other server is an in-JVM {@link ThriftServer} that records every {@code add} it runs.
 */
class ServerProcessFaultTest {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
    private static final int RETRIES = 1;
    /** Per attempt: the wait for a pooled connection, the connect, the wait for the reply (docs/thrift.md). */
    private static final Duration CALL_BOUND =
            CONNECT_TIMEOUT.multipliedBy(2).plus(READ_TIMEOUT).multipliedBy(RETRIES + 1);
    /** Thread scheduling and GC on a shared 2-core machine. */
    private static final Duration SLACK = Duration.ofSeconds(3);
    private static final int THREADS = 4;
    private static final int MAX_CALLS_PER_THREAD = 1_000_000;
    private static final Duration MAX_LOAD_TIME = Duration.ofSeconds(90);
    private static final Duration STEP = Duration.ofSeconds(20);

    private final CalculatorHandler healthyHandler = new CalculatorHandler();
    private final Set<Long> addedOnHealthy = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger succeeded = new AtomicInteger();
    private final AtomicLong slowestCallNanos = new AtomicLong();
    private final ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();
    private final List<Future<?>> workers = new ArrayList<>();
    private ExecutorService load;
    private ServerProcess victim;
    private ThriftServer healthy;
    private ThriftClient client;

    private record Failure(boolean idempotent, long args, Throwable error) {
    }

    @BeforeEach
    void startServersAndLoad() {
        victim = ServerProcess.start();
        healthy = ThriftServer.builder(new Calculator.Processor<>(recording(healthyHandler)))
                .host("127.0.0.1").port(0).workerThreads(8).build().start();
        client = ThriftClient.builder()
                .server("127.0.0.1", victim.port()).server("127.0.0.1", healthy.port())
                .connectTimeout(CONNECT_TIMEOUT).readTimeout(READ_TIMEOUT).retries(RETRIES)
                .failAfterTimeouts(2).healthCheckInterval(Duration.ofMillis(100)).build();
        Calculator.Iface plain = client.proxy(Calculator.Iface.class);
        Calculator.Iface idempotent = client.proxyBuilder(Calculator.Iface.class).idempotent("add").build();
        load = Executors.newFixedThreadPool(THREADS);
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            boolean retried = t % 2 == 0;
            workers.add(load.submit(() -> callInALoop(thread, retried ? idempotent : plain, retried)));
        }
        await().atMost(STEP).until(() -> healthyHandler.calls.get() > 100 && servedByVictim() > 100);
    }

    @AfterEach
    void stopEverything() {
        running.set(false);
        load.shutdownNow();
        client.close();
        healthy.close();
        victim.close();
    }

    @Test
    void aKilledServerLeavesRotationAndReturnsAfterRestart() throws Exception {
        victim.kill();
        awaitCallsOnlyOnTheHealthyServer();

        victim.restart();
        awaitVictimBackInRotation();

        stopLoadAndCheckOutcomes();
    }

    @Test
    void aStoppedServerLeavesRotationThroughTimeoutsAndReturnsAfterSigcont() throws Exception {
        victim.pause();
        awaitCallsOnlyOnTheHealthyServer();

        victim.resume();
        awaitVictimBackInRotation();

        stopLoadAndCheckOutcomes();
        // Calls that were waiting on the stopped server when it stopped answering failed by
        // timeout: they are not idempotent, so they were not run again on the healthy server.
        assertThat(failures).anySatisfy(f -> assertThat(((TTransportException) f.error()).getType())
                .isEqualTo(TTransportException.TIMED_OUT));
    }

    private void awaitCallsOnlyOnTheHealthyServer() {
        await().atMost(STEP).until(() -> !client.serversInRotation().contains(victim.address()));
        int onHealthy = healthyHandler.calls.get();
        await().atMost(STEP).until(() -> healthyHandler.calls.get() > onHealthy + 500);
    }

    private void awaitVictimBackInRotation() {
        await().atMost(STEP).until(() -> client.serversInRotation().size() == 2);
        int servedBefore = servedByVictim();
        await().atMost(STEP).until(() -> servedByVictim() > servedBefore + 100);
    }

    private void stopLoadAndCheckOutcomes() throws Exception {
        running.set(false);
        // No caller is stuck: every one returns within one call's bound.
        for (Future<?> worker : workers) {
            worker.get(CALL_BOUND.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS);
        }
        assertThat(Duration.ofNanos(slowestCallNanos.get())).isLessThanOrEqualTo(CALL_BOUND.plus(SLACK));
        assertThat(failures).allSatisfy(f -> {
            assertThat(f.idempotent()).as("idempotent calls move to the healthy server").isFalse();
            assertThat(f.error()).isInstanceOfSatisfying(ThriftTransportFailureException.class, e -> {
                assertThat(e.server()).isEqualTo(victim.address());
                assertThat(e).hasMessageContaining(victim.address());
                assertThat(e.requestMayHaveReachedServer()).isTrue();
            });
            assertThat(addedOnHealthy).as("a sent non-idempotent call is not run again elsewhere")
                    .doesNotContain(f.args());
        });
    }

    private void callInALoop(int thread, Calculator.Iface calculator, boolean idempotent) {
        long deadline = System.nanoTime() + MAX_LOAD_TIME.toNanos();
        for (int i = 0; i < MAX_CALLS_PER_THREAD && running.get() && System.nanoTime() < deadline; i++) {
            long started = System.nanoTime();
            try {
                assertThat(calculator.add(thread, i)).isEqualTo(thread + i);
                succeeded.incrementAndGet();
            } catch (Throwable e) {
                failures.add(new Failure(idempotent, key(thread, i), e));
            }
            slowestCallNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
        }
    }

    /** Successful calls the healthy server did not run. */
    private int servedByVictim() {
        return succeeded.get() - healthyHandler.calls.get();
    }

    private Calculator.Iface recording(CalculatorHandler handler) {
        return (Calculator.Iface) Proxy.newProxyInstance(Calculator.Iface.class.getClassLoader(),
                new Class<?>[] {Calculator.Iface.class}, (proxy, method, args) -> {
                    if (method.getName().equals("add")) {
                        addedOnHealthy.add(key((Integer) args[0], (Integer) args[1]));
                    }
                    try {
                        return method.invoke(handler, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static long key(int a, int b) {
        return ((long) a << 32) | (b & 0xFFFFFFFFL);
    }
}
