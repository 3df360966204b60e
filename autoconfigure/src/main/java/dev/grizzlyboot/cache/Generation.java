package dev.grizzlyboot.cache;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import dev.grizzlyboot.memcached.MemcachedClient;

/**
 * A cache's generation number: part of every key, so that bumping it (a clear) makes all older
 * entries unreachable. The counter lives in memcached, so every application instance sharing the
 * memcached sees a bump; each instance keeps a local copy and re-reads it once it is older than
 * the refresh interval, so that a cache read costs one round trip, not two. Thread-safe.
 *
 * <p>The counter is created with the current time in thousandths of a millisecond, not 0: if
 * memcached evicts or loses it, the re-created counter is larger than every generation used
 * before, so old entries never come back. Each clear adds one, so the counter stays behind the
 * clock unless clears run at more than a thousand a millisecond; in milliseconds a burst of
 * clears faster than one a millisecond ran it ahead, and a counter lost then came back at a
 * generation already used.
 */
final class Generation {

    private static final Duration NO_EXPIRY = Duration.ZERO;

    private final MemcachedClient client;
    private final String key;
    private final long refreshNanos;
    private final CacheErrors errors;
    private final AtomicReference<Known> known = new AtomicReference<>();
    private final AtomicReference<CompletableFuture<Long>> refreshing = new AtomicReference<>();

    /** The last generation seen and when the request that read it was sent; the future is completed. */
    private record Known(CompletableFuture<Long> value, long sentAtNanos) {

        long generation() {
            return value.join();
        }
    }

    Generation(MemcachedClient client, String key, Duration refreshInterval, CacheErrors errors) {
        this.client = client;
        this.key = key;
        this.refreshNanos = refreshInterval.toNanos();
        this.errors = errors;
    }

    /**
     * The current generation: the local copy while it is fresh (no round trip), else a re-read.
     * When a re-read fails, the last known generation is used for another interval (a clear needs
     * the same server, so it cannot have happened meanwhile unless the server was lost); with none
     * known, the future fails.
     */
    CompletableFuture<Long> current() {
        Known last = known.get();
        if (last != null && System.nanoTime() - last.sentAtNanos() < refreshNanos) {
            return last.value();
        }
        return refresh();
    }

    /** Bumps the generation in memcached (a clear) past every generation seen here, and adopts it at once. */
    CompletableFuture<Long> increment() {
        long sentAt = System.nanoTime();
        long last = lastKnown();
        long floor = last == Long.MIN_VALUE ? last : last + 1;
        return client.incr(key, 1, freshCounter(), NO_EXPIRY)
                .thenCompose(value -> atLeast(value, floor))
                .thenApply(value -> adopt(value, sentAt));
    }

    private CompletableFuture<Long> refresh() {
        while (true) {
            CompletableFuture<Long> running = refreshing.get();
            if (running != null) {
                return running;
            }
            CompletableFuture<Long> mine = new CompletableFuture<>();
            if (refreshing.compareAndSet(null, mine)) {
                long sentAt = System.nanoTime();
                // Adding 0 reads the counter and creates it when missing, in one atomic step.
                client.incr(key, 0, freshCounter(), NO_EXPIRY)
                        .thenCompose(value -> atLeast(value, lastKnown()))
                        .whenComplete((value, error) -> refreshed(mine, sentAt, value, error));
                return mine;
            }
        }
    }

    private void refreshed(CompletableFuture<Long> refresh, long sentAt, Long value, Throwable error) {
        if (error == null) {
            finish(refresh, adopt(value, sentAt), null);
        } else if (lastKnown() != Long.MIN_VALUE) {
            errors.report("generation re-read", "keeping the last known generation", key, CacheErrors.unwrap(error));
            finish(refresh, adopt(lastKnown(), sentAt), null);
        } else {
            finish(refresh, null, error);
        }
    }

    /**
     * The counter raised to {@code floor} if it is below: a server that failed over and came back
     * (not restarted) still holds an old, smaller counter, and going back to it would make old
     * entries visible again and hide the clears made meanwhile. Raising it makes every instance
     * agree on the newest generation again.
     */
    private CompletableFuture<Long> atLeast(long counter, long floor) {
        if (counter >= floor) {
            return CompletableFuture.completedFuture(counter);
        }
        return client.incr(key, floor - counter, floor, NO_EXPIRY);
    }

    /** The value a counter is created with: now, in thousandths of a millisecond. */
    private static long freshCounter() {
        return System.currentTimeMillis() * 1000;
    }

    private long lastKnown() {
        Known last = known.get();
        return last == null ? Long.MIN_VALUE : last.generation();
    }

    /** Lets the next stale read start a new refresh, then answers the readers that waited for this one. */
    private void finish(CompletableFuture<Long> refresh, Long value, Throwable error) {
        refreshing.compareAndSet(refresh, null);
        if (error == null) {
            refresh.complete(value);
        } else {
            refresh.completeExceptionally(error);
        }
    }

    /** Takes a value read from memcached; generations only grow, so a late answer never moves it back. */
    private long adopt(long value, long sentAtNanos) {
        Known updated = known.accumulateAndGet(new Known(CompletableFuture.completedFuture(value), sentAtNanos),
                (old, fresh) -> old == null ? fresh : new Known(
                        old.generation() >= fresh.generation() ? old.value() : fresh.value(),
                        Math.max(old.sentAtNanos(), fresh.sentAtNanos())));
        return updated.generation();
    }
}
