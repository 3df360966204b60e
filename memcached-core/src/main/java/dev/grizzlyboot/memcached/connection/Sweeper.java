package dev.grizzlyboot.memcached.connection;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread per client that, every tick, fails operations past their deadline and lets
 * each pool close idle connections and reopen its minimum. Checking deadlines in a sweep rather
 * than scheduling a timer per operation keeps the request path free of timer bookkeeping; the
 * price is that a timeout fires up to one tick late. Thread-safe. Internal.
 */
public final class Sweeper implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Sweeper.class);

    private final Set<ConnectionPool> pools = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService executor;

    public Sweeper(Duration tick) {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "grizzly-memcached-sweeper");
            thread.setDaemon(true);
            return thread;
        });
        long nanos = tick.toNanos();
        executor.scheduleWithFixedDelay(this::sweep, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    /** Starts maintaining a pool (and opens its minimum connections now). */
    public void register(ConnectionPool pool) {
        pools.add(pool);
        pool.maintain(System.nanoTime());
    }

    /** Stops maintaining a pool. */
    public void unregister(ConnectionPool pool) {
        pools.remove(pool);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    private void sweep() {
        long now = System.nanoTime();
        for (ConnectionPool pool : pools) {
            try {
                pool.maintain(now);
            } catch (RuntimeException e) {
                log.warn("maintenance of the pool for {} failed", pool.server(), e);
            }
        }
    }
}
