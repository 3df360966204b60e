package dev.grizzlyboot.benchmarks.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

import org.HdrHistogram.Histogram;

/**
 * The load of a failover run: 64 caller threads loop over blocking get or set (a coin flip per
 * call, random keys of a populated key space) for a fixed time, counting calls, errors and misses
 * in 100 ms buckets by completion time. Runs in the JVM that holds the client; {@link FailoverRun}
 * kills and restarts the server meanwhile.
 */
final class FailoverLoad {

    static final int THREADS = 64;
    static final Duration BUCKET = Duration.ofMillis(100);

    /**
     * What the callers saw: per bucket, completed calls, errors and misses (gets that found
     * nothing); latency of every call; the first error's text, or {@code null}.
     */
    record Trace(long[] calls, long[] errors, long[] misses, double p99Micros, double maxMicros, String firstError) {
    }

    /** A load in progress; {@link #startedNanos()} is on the clock of the JVM that drives the run. */
    interface Running {

        long startedNanos();

        /** Waits for the callers to finish (the load's length after its start) and returns what they saw. */
        Trace await() throws Exception;
    }

    private FailoverLoad() {
    }

    static Running start(BenchClient client, KeySpace keys, Duration length) {
        long start = System.nanoTime();
        long end = start + length.toNanos();
        int buckets = (int) (length.toNanos() / BUCKET.toNanos()) + 1;
        AtomicLongArray calls = new AtomicLongArray(buckets);
        AtomicLongArray errors = new AtomicLongArray(buckets);
        AtomicLongArray misses = new AtomicLongArray(buckets);
        AtomicReference<String> firstError = new AtomicReference<>();
        Histogram latencies = new Histogram(2);
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread caller = new Thread(() -> {
                Histogram own = new Histogram(2);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (long begin = System.nanoTime(); begin < end; begin = System.nanoTime()) {
                    boolean missed = false;
                    boolean failed = false;
                    try {
                        missed = (random.nextBoolean() ? Workload.GET : Workload.SET).call(client, keys, random) > 0;
                    } catch (Exception e) {
                        failed = true;
                        firstError.compareAndSet(null, e.toString());
                    }
                    long done = System.nanoTime();
                    own.recordValue(done - begin);
                    int b = Math.min((int) ((done - start) / BUCKET.toNanos()), buckets - 1);
                    calls.incrementAndGet(b);
                    if (failed) {
                        errors.incrementAndGet(b);
                    } else if (missed) {
                        misses.incrementAndGet(b);
                    }
                }
                synchronized (latencies) {
                    latencies.add(own);
                }
            }, "failover-caller-" + t);
            caller.setDaemon(true);
            callers.add(caller);
            caller.start();
        }
        return new Running() {
            @Override
            public long startedNanos() {
                return start;
            }

            @Override
            public Trace await() throws InterruptedException {
                for (Thread caller : callers) {
                    caller.join();
                }
                return new Trace(toArray(calls), toArray(errors), toArray(misses),
                        latencies.getValueAtPercentile(99) / 1000.0, latencies.getMaxValue() / 1000.0, firstError.get());
            }
        };
    }

    private static long[] toArray(AtomicLongArray counts) {
        long[] values = new long[counts.length()];
        for (int i = 0; i < values.length; i++) {
            values[i] = counts.get(i);
        }
        return values;
    }
}
