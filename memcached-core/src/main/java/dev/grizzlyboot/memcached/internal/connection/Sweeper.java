package dev.grizzlyboot.memcached.internal.connection;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread per client that runs the client's maintenance every tick: failing operations
 * past their deadline, closing idle connections, reopening minimums, probing failed servers.
 * Checking deadlines in a sweep rather than scheduling a timer per operation keeps the request
 * path free of timer bookkeeping; the price is that a timeout fires up to one tick late.
 * Thread-safe. Internal.
 */
public final class Sweeper implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Sweeper.class);

    private final ScheduledExecutorService executor;

    /**
     * Starts the thread.
     *
     * @param tick        time between the end of one run and the start of the next
     * @param maintenance what to run, given {@link System#nanoTime()}
     */
    public Sweeper(Duration tick, LongConsumer maintenance) {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "grizzly-memcached-sweeper");
            thread.setDaemon(true);
            return thread;
        });
        long nanos = tick.toNanos();
        executor.scheduleWithFixedDelay(() -> {
            try {
                maintenance.accept(System.nanoTime());
            } catch (RuntimeException e) {
                log.warn("memcached client maintenance failed", e);
            }
        }, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
