package dev.grizzlyboot.memcached.internal.connection;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread per client that runs the client's maintenance every tick: failing operations
 * past their deadline, closing idle connections, reopening minimums, probing failed servers.
 * Checking deadlines in a sweep rather than scheduling a timer per operation keeps the request
 * path free of timer bookkeeping; the price is that a timeout fires up to one tick late.
 * A run that starts far later than its tick says the whole client was stalled (a GC pause, a
 * starved CPU); for a while after it the maintenance is told so, because timeouts then are the
 * client's own lateness, not the server's. Thread-safe. Internal.
 */
public final class Sweeper implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Sweeper.class);

    private final ScheduledExecutorService executor;

    /** What the sweeper runs. */
    @FunctionalInterface
    public interface Maintenance {
        /**
         * @param nowNanos      {@link System#nanoTime()} at the start of the run
         * @param clientStalled whether this thread was stalled within the stall window before now
         */
        void run(long nowNanos, boolean clientStalled);
    }

    /**
     * Starts the thread.
     *
     * @param tick        time between the end of one run and the start of the next
     * @param stallWindow how long after a stall runs are told the client was stalled; a run that
     *                    starts more than half of it (at least four ticks) late is a stall
     * @param maintenance what to run
     */
    public Sweeper(Duration tick, Duration stallWindow, Maintenance maintenance) {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "grizzly-memcached-sweeper");
            thread.setDaemon(true);
            return thread;
        });
        long nanos = tick.toNanos();
        StallClock stalls = new StallClock(nanos, stallWindow.toNanos(), System.nanoTime());
        executor.scheduleWithFixedDelay(() -> {
            long now = System.nanoTime();
            try {
                maintenance.run(now, stalls.stalledAt(now));
            } catch (RuntimeException e) {
                log.warn("memcached client maintenance failed", e);
            } finally {
                stalls.ended(System.nanoTime());
            }
        }, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    /** When the sweeper's runs started too late. Sweeper thread only. */
    static final class StallClock {
        private final long tickNanos;
        private final long windowNanos;
        private final long lateNanos;
        private long lastEndNanos;
        private long lastStallNanos;

        StallClock(long tickNanos, long windowNanos, long startNanos) {
            this.tickNanos = tickNanos;
            this.windowNanos = windowNanos;
            this.lateNanos = Math.max(4 * tickNanos, windowNanos / 2);
            this.lastEndNanos = startNanos;
            this.lastStallNanos = startNanos - windowNanos - 1;
        }

        /** Records a run starting at {@code nowNanos}; tells whether a stall lies within the window before it. */
        boolean stalledAt(long nowNanos) {
            if (nowNanos - lastEndNanos - tickNanos > lateNanos) {
                lastStallNanos = nowNanos;
            }
            return nowNanos - lastStallNanos <= windowNanos;
        }

        /** Records the end of a run. */
        void ended(long nowNanos) {
            lastEndNanos = nowNanos;
        }
    }
}
