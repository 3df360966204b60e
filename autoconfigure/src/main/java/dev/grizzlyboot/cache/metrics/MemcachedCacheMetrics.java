package dev.grizzlyboot.cache.metrics;

import dev.grizzlyboot.cache.MemcachedCache;
import dev.grizzlyboot.cache.MemcachedCacheStatistics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.cache.CacheMeterBinder;

/**
 * Micrometer's cache meters for a {@link MemcachedCache}, read from its
 * {@link MemcachedCacheStatistics}: {@code cache.gets} ({@code result=hit|miss}), {@code cache.puts},
 * {@code cache.evictions} (evictions asked for, as {@code @CacheEvict} does) and
 * {@code cache.removals} (entries those evictions deleted). There is no {@code cache.size}:
 * memcached cannot count one cache's entries. Bind it once per cache and registry; thread-safe.
 */
public final class MemcachedCacheMetrics extends CacheMeterBinder<MemcachedCache> {

    private final MemcachedCache cache;

    /** Meters for {@code cache}, tagged with its name and {@code tags}. */
    public MemcachedCacheMetrics(MemcachedCache cache, Iterable<Tag> tags) {
        super(cache, cache.getName(), tags);
        this.cache = cache;
    }

    @Override
    protected Long size() {
        return null;
    }

    @Override
    protected long hitCount() {
        return cache.getStatistics().getHits();
    }

    @Override
    protected Long missCount() {
        return cache.getStatistics().getMisses();
    }

    @Override
    protected Long evictionCount() {
        return cache.getStatistics().getEvictions();
    }

    @Override
    protected long putCount() {
        return cache.getStatistics().getPuts();
    }

    @Override
    protected void bindImplementationSpecificMetrics(MeterRegistry registry) {
        FunctionCounter.builder("cache.removals", cache, c -> c.getStatistics().getRemovals())
                .tags(getTagsWithCacheName())
                .description("Cache entries deleted by evictions")
                .register(registry);
    }
}
