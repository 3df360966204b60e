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

    CaffeineNearCache(Duration ttl, long maxEntries) {
        this.entries = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(maxEntries).build();
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
        if (writes.get() == epochAtSend) {
            entries.put(key, data);
        }
    }

    @Override
    public void invalidate(String key) {
        writes.incrementAndGet();
        entries.invalidate(key);
    }

    @Override
    public void invalidateAll() {
        writes.incrementAndGet();
        entries.invalidateAll();
    }

    @Override
    public long size() {
        return entries.estimatedSize();
    }
}
