package dev.grizzlyboot.cache;

import java.util.concurrent.atomic.LongAdder;

/**
 * Running counts of what one {@link MemcachedCache} was asked to do, for metrics: reads that hit or
 * missed (a read that failed and was bypassed counts as a miss, since the cached method runs), puts,
 * evictions asked for ({@code evict}, {@code @CacheEvict}) and the entries those evictions actually
 * deleted. Counts only grow. Thread-safe; updates are cheap uncontended adds.
 */
public final class MemcachedCacheStatistics {

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder puts = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder removals = new LongAdder();

    MemcachedCacheStatistics() {
    }

    /** Reads that found an entry. */
    public long getHits() {
        return hits.sum();
    }

    /** Reads that found none (or failed and were bypassed). */
    public long getMisses() {
        return misses.sum();
    }

    /** Values written (put, a loaded value, a successful putIfAbsent). */
    public long getPuts() {
        return puts.sum();
    }

    /** Evictions asked for, whether or not memcached held the key. */
    public long getEvictions() {
        return evictions.sum();
    }

    /** Entries an eviction deleted (memcached held the key). */
    public long getRemovals() {
        return removals.sum();
    }

    void read(Object found) {
        (found != null ? hits : misses).increment();
    }

    void put() {
        puts.increment();
    }

    void evicted(boolean removed) {
        evictions.increment();
        if (removed) {
            removals.increment();
        }
    }
}
