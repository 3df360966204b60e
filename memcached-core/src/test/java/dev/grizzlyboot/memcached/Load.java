package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * Caller threads looping set-then-get over their own keys until stopped, recording successes,
 * error types and times, wrong values (a get that returns another key's value) and the slowest
 * call. Bounded: every thread stops at {@link #stop()} or after {@code maxDuration}.
 */
final class Load {

    final AtomicLong successes = new AtomicLong();
    final AtomicLong misses = new AtomicLong();
    final AtomicLong wrongValues = new AtomicLong();
    final Map<Class<?>, AtomicLong> errors = new ConcurrentHashMap<>();
    /** The first message of each error type, for assertion messages. */
    final Map<Class<?>, String> firstErrors = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<Long> errorTimes = new ConcurrentLinkedQueue<>();
    final LongAccumulator slowestMillis = new LongAccumulator(Math::max, 0);
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService threads;
    private final List<Future<?>> workers = new ArrayList<>();
    private final long stopTimeoutMillis;

    /**
     * @param keysPerThread each thread cycles through its own keys, spread over every server
     * @param stopTimeout   how long {@link #stop()} waits for the threads before calling them stuck
     */
    Load(BlockingMemcachedClient client, int threadCount, int keysPerThread, Duration maxDuration, Duration stopTimeout) {
        this.stopTimeoutMillis = stopTimeout.toMillis();
        long endNanos = System.nanoTime() + maxDuration.toNanos();
        threads = Executors.newFixedThreadPool(threadCount);
        for (int t = 0; t < threadCount; t++) {
            int thread = t;
            workers.add(threads.submit(() -> {
                for (long i = 0; running.get() && System.nanoTime() - endNanos < 0; i++) {
                    String key = "load-" + thread + "-" + (i % keysPerThread);
                    String value = "value-of-" + key;
                    timed(() -> client.set(key, value, Duration.ZERO));
                    timed(() -> {
                        Object read = client.get(key);
                        if (read == null) {
                            misses.incrementAndGet();
                        } else if (!value.equals(read)) {
                            wrongValues.incrementAndGet();
                        }
                    });
                }
            }));
        }
    }

    long errorCount() {
        return errors.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** Errors recorded at or after {@code nanos} ({@link System#nanoTime()} clock). */
    long errorsSince(long nanos) {
        return errorTimes.stream().filter(time -> time - nanos >= 0).count();
    }

    /** Stops the threads and asserts none is stuck. */
    void stop() throws Exception {
        running.set(false);
        threads.shutdown();
        assertThat(threads.awaitTermination(stopTimeoutMillis, TimeUnit.MILLISECONDS)).as("no stuck caller").isTrue();
        for (Future<?> worker : workers) {
            worker.get();
        }
    }

    private void timed(Runnable call) {
        long start = System.nanoTime();
        try {
            call.run();
            successes.incrementAndGet();
        } catch (MemcachedException e) {
            errors.computeIfAbsent(e.getClass(), c -> new AtomicLong()).incrementAndGet();
            firstErrors.putIfAbsent(e.getClass(), e.getMessage());
            errorTimes.add(System.nanoTime());
        }
        slowestMillis.accumulate(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }
}
