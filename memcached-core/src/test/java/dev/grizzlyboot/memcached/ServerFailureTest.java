package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server killed (SIGKILL) or hung (SIGSTOP) under concurrent load: every call returns within
 * the operation timeout (plus the sweep tick and scheduling slack), only with typed errors, no
 * caller thread is stuck, and the client serves again once the server is back.
 */
class ServerFailureTest {

    private static final Duration TIMEOUT = Duration.ofMillis(250);
    /** Timeout + one sweep tick + generous scheduling slack on a loaded 2-core machine. */
    private static final long BOUND_MILLIS = TIMEOUT.toMillis() + 500;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void killedServerUnderLoad() throws Exception {
        runFaultUnderLoad(MemcachedProcess::kill, MemcachedProcess::restart);
    }

    @Test
    void hungServerUnderLoad() throws Exception {
        runFaultUnderLoad(MemcachedProcess::pause, MemcachedProcess::resume);
    }

    private void runFaultUnderLoad(java.util.function.Consumer<MemcachedProcess> fault,
            java.util.function.Consumer<MemcachedProcess> heal) throws Exception {
        MemcachedProcess server = memcached.first();
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address())
                .operationTimeout(TIMEOUT).connectTimeout(TIMEOUT)
                .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200)).build()) {
            Load load = new Load(client.blocking(), 16);
            await().atMost(Duration.ofSeconds(10)).until(() -> load.successes.get() > 1_000);

            fault.accept(server);
            long errorsBefore = load.errorCount();
            await().atMost(Duration.ofSeconds(10)).until(() -> load.errorCount() > errorsBefore + 50);
            heal.accept(server);

            long successesAfterHeal = load.successes.get();
            await().atMost(Duration.ofSeconds(10)).until(() -> load.successes.get() > successesAfterHeal + 1_000);
            load.stop();

            assertThat(load.slowestMillis.get()).as("slowest call (ms)").isLessThanOrEqualTo(BOUND_MILLIS);
            assertThat(load.errors.keySet()).as("error types").isNotEmpty()
                    .allMatch(type -> type == MemcachedTimeoutException.class || MemcachedConnectionException.class.isAssignableFrom(type));
            // Recovered: the data path works end to end again.
            client.blocking().set("after-fault", "ok", Duration.ZERO);
            assertThat(client.blocking().get("after-fault")).isEqualTo("ok");
        }
    }

    /** Caller threads looping set+get until stopped, recording the slowest call and error types. */
    private static final class Load {

        final AtomicLong successes = new AtomicLong();
        final Map<Class<?>, AtomicLong> errors = new ConcurrentHashMap<>();
        final LongAccumulator slowestMillis = new LongAccumulator(Math::max, 0);
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ExecutorService threads;
        private final List<Future<?>> workers = new ArrayList<>();

        Load(BlockingMemcachedClient client, int threadCount) {
            threads = Executors.newFixedThreadPool(threadCount);
            for (int t = 0; t < threadCount; t++) {
                String key = "load-" + t;
                workers.add(threads.submit(() -> {
                    while (running.get()) {
                        timed(() -> client.set(key, "v", Duration.ZERO));
                        timed(() -> client.get(key));
                    }
                }));
            }
        }

        private void timed(Runnable call) {
            long start = System.nanoTime();
            try {
                call.run();
                successes.incrementAndGet();
            } catch (MemcachedException e) {
                errors.computeIfAbsent(e.getClass(), c -> new AtomicLong()).incrementAndGet();
            }
            slowestMillis.accumulate(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }

        long errorCount() {
            return errors.values().stream().mapToLong(AtomicLong::get).sum();
        }

        void stop() throws Exception {
            running.set(false);
            threads.shutdown();
            assertThat(threads.awaitTermination(BOUND_MILLIS * 4, TimeUnit.MILLISECONDS)).as("no stuck caller").isTrue();
            for (Future<?> worker : workers) {
                worker.get();
            }
        }
    }
}
