package dev.grizzlyboot.cache;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.grizzlyboot.memcached.MemcachedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a cache does when memcached fails: either the {@link MemcachedException} propagates, or it
 * is logged and the operation degrades (a read becomes a miss, a write is skipped). Other
 * exceptions (a loader's, a {@code null} the cache may not hold) always propagate. During an
 * outage at most one warning per cache is logged every ten seconds; the rest go to DEBUG.
 * Thread-safe.
 */
final class CacheErrors {

    private static final Logger log = LoggerFactory.getLogger(MemcachedCache.class);
    private static final long WARNING_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String cacheName;
    private final boolean propagate;
    private final AtomicLong lastWarningNanos = new AtomicLong(System.nanoTime() - WARNING_INTERVAL_NANOS);
    private final AtomicLong quietErrors = new AtomicLong();

    CacheErrors(String cacheName, boolean propagate) {
        this.cacheName = cacheName;
        this.propagate = propagate;
    }

    /** Whether {@code error} (unwrapped) is a memcached failure to swallow; if so it is logged. */
    private boolean tolerate(String operation, Object key, Throwable error) {
        if (propagate || !(error instanceof MemcachedException)) {
            return false;
        }
        report(operation, "cache bypassed (a read counts as a miss)", key, error);
        return true;
    }

    /** Logs a failure: WARN if none was logged for a while, else DEBUG only. */
    void report(String operation, String consequence, Object key, Throwable error) {
        long now = System.nanoTime();
        long last = lastWarningNanos.get();
        if (now - last >= WARNING_INTERVAL_NANOS && lastWarningNanos.compareAndSet(last, now)) {
            long quiet = quietErrors.getAndSet(0);
            log.warn("cache '{}': {} failed, {}: {}{}", cacheName, operation, consequence, error,
                    quiet > 0 ? " (and " + quiet + " more errors since the last warning)" : "");
        } else {
            quietErrors.incrementAndGet();
        }
        log.debug("cache '{}': {} of key '{}' failed", cacheName, operation, key, error);
    }

    /** {@code fallback} if the failure is tolerated, else the failure thrown unchecked. */
    <T> T handle(String operation, Object key, Throwable failure, T fallback) {
        Throwable error = unwrap(failure);
        if (tolerate(operation, key, error)) {
            return fallback;
        }
        throw unchecked(error);
    }

    /** The exception inside the wrappers that futures add. */
    static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    static RuntimeException unchecked(Throwable error) {
        if (error instanceof RuntimeException runtime) {
            return runtime;
        }
        if (error instanceof Error fatal) {
            throw fatal;
        }
        return new MemcachedException(error.toString(), error);
    }
}
