package dev.grizzlyboot.memcached;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.grizzlyboot.memcached.transcoder.CachedData;

/**
 * {@link NearCache} on a Caffeine cache bounded in size and entry age. Loaded only when the near
 * cache is switched on, so Caffeine stays an optional dependency. Thread-safe.
 */
final class CaffeineNearCache implements NearCache {

    private final Cache<String, CachedData> entries;
    private final AtomicLong writes = new AtomicLong();
    /** Until when ({@link System#nanoTime()}) no read is kept: a delayed flush is still to come. */
    private volatile long keepNothingUntil = System.nanoTime();

    CaffeineNearCache(Duration ttl, long maxEntries) {
        this.entries = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(maxEntries).recordStats().build();
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public CachedData get(String key) {
        return entries.getIfPresent(key);
    }

    @Override
    public long epoch() {
        return writes.get();
    }

    @Override
    public void loaded(String key, CachedData data, long epochAtSend) {
        // A write since the read was sent may have been answered before this read: its value could be the older one.
        if (writes.get() == epochAtSend && System.nanoTime() - keepNothingUntil >= 0) {
            entries.put(key, data);
        }
    }

    @Override
    public void invalidate(String key) {
        writes.incrementAndGet();
        entries.invalidate(key);
    }

    @Override
    public void absent(String key) {
        entries.invalidate(key);
    }

    @Override
    public void invalidateAll() {
        writes.incrementAndGet();
        entries.invalidateAll();
    }

    @Override
    public synchronized void invalidateAllFor(long nanos) {
        long until = System.nanoTime() + nanos;
        if (until - keepNothingUntil > 0) {
            keepNothingUntil = until;
        }
        invalidateAll();
    }

    @Override
    public long hitCount() {
        return entries.stats().hitCount();
    }

    @Override
    public long missCount() {
        return entries.stats().missCount();
    }

    @Override
    public long size() {
        return entries.estimatedSize();
    }
}
