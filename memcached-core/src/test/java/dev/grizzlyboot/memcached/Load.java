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

import dev.grizzlyboot.testsupport.Stalls;

/**
 * Caller threads looping set-then-get over their own keys until stopped, recording successes,
 * errors (type, message, when), wrong values (a get that returns another key's value) and the
 * slowest calls. Bounded: every thread stops at {@link #stop()} or after {@code maxDuration}.
 *
 * <p>On a busy machine the client itself may not run for a while (the test JVM shares its CPUs);
 * {@link Stalls} measures that, and the bounds here are on a call's time without it: a call that
 * timed out only because the client was stalled says nothing about the server or the failover.
 */
final class Load {

    private static final long SLOW_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long STOP_TIMEOUT_SECONDS = 30;

    /** One call, from start to end ({@link System#nanoTime()} clock). */
    private record Call(long startNanos, long endNanos) {
    }

    /** A call that failed, and how long of its time this JVM was stalled. */
    record Failure(long startNanos, long endNanos, long stalledNanos, Class<?> type, String message) {

        /** A timeout that would not have happened had the client run: without its stalls, the call was within the timeout. */
        boolean timeoutOfAStalledClient(Duration timeout) {
            return type == MemcachedTimeoutException.class && endNanos - startNanos - stalledNanos < timeout.toNanos();
        }

        @Override
        public String toString() {
            return type.getSimpleName() + " after " + TimeUnit.NANOSECONDS.toMillis(endNanos - startNanos) + " ms (client stalled "
                    + TimeUnit.NANOSECONDS.toMillis(stalledNanos) + " ms of it): " + message;
        }
    }

    final AtomicLong successes = new AtomicLong();
    final AtomicLong misses = new AtomicLong();
    final AtomicLong wrongValues = new AtomicLong();
    final Map<Class<?>, AtomicLong> errors = new ConcurrentHashMap<>();
    /** The first message of each error type, for assertion messages. */
    final Map<Class<?>, String> firstErrors = new ConcurrentHashMap<>();
    final LongAccumulator slowestMillis = new LongAccumulator(Math::max, 0);
    final long startNanos = System.nanoTime();
    private final ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();
    /** Calls that took longer than {@link #SLOW_NANOS}, to be measured against the stalls when asked. */
    private final ConcurrentLinkedQueue<Call> slowCalls = new ConcurrentLinkedQueue<>();
    private final Stalls stalls = new Stalls();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService threads;
    private final List<Future<?>> workers = new ArrayList<>();

    /**
     * @param keysPerThread each thread cycles through its own keys, spread over every server
     */
    Load(BlockingMemcachedClient client, int threadCount, int keysPerThread, Duration maxDuration) {
        long endNanos = startNanos + maxDuration.toNanos();
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

    /**
     * Errors of calls that ended at or after {@code nanos} ({@link System#nanoTime()} clock),
     * except timeouts that only the client's own stalls explain (see {@link Failure#timeoutOfAStalledClient}).
     */
    List<Failure> errorsSince(long nanos, Duration timeout) {
        return failures.stream().filter(failure -> failure.endNanos - nanos >= 0)
                .map(failure -> new Failure(failure.startNanos, failure.endNanos,
                        stalls.stalledNanos(failure.startNanos, failure.endNanos), failure.type, failure.message))
                .filter(failure -> !failure.timeoutOfAStalledClient(timeout)).toList();
    }

    /** The longest time a call took beyond the time this JVM was stalled during it. */
    long slowestMillisBeyondStalls() {
        long slowest = 0;
        for (Call call : slowCalls) {
            slowest = Math.max(slowest, call.endNanos - call.startNanos - stalls.stalledNanos(call.startNanos, call.endNanos));
        }
        return TimeUnit.NANOSECONDS.toMillis(slowest);
    }

    /** How long this JVM was stalled between two {@link System#nanoTime()} readings. */
    long stalledNanos(long fromNanos, long toNanos) {
        return stalls.stalledNanos(fromNanos, toNanos);
    }

    /** How long this JVM was stalled in all while the load ran. */
    long stalledMillis() {
        return TimeUnit.NANOSECONDS.toMillis(stalls.totalStalledNanos());
    }

    /** Stops the threads and asserts none is stuck. */
    void stop() throws Exception {
        running.set(false);
        threads.shutdown();
        // A stuck caller never ends; one that is merely slow is held to its bound by the tests' slowest-call checks.
        boolean ended = threads.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        stalls.close();
        assertThat(ended).as("no stuck caller").isTrue();
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
            failures.add(new Failure(start, System.nanoTime(), 0, e.getClass(), e.getMessage()));
        }
        long end = System.nanoTime();
        slowestMillis.accumulate(TimeUnit.NANOSECONDS.toMillis(end - start));
        if (end - start > SLOW_NANOS) {
            slowCalls.add(new Call(start, end));
        }
    }
}
