package dev.grizzlyboot.cache.metrics;

import dev.grizzlyboot.cache.MemcachedCache;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.cache.metrics.CacheMeterBinderProvider;

/**
 * Gives Spring Boot's {@code CacheMetricsRegistrar} the {@link MemcachedCacheMetrics} of a
 * {@link MemcachedCache}. Stateless and thread-safe.
 */
public final class MemcachedCacheMeterBinderProvider implements CacheMeterBinderProvider<MemcachedCache> {

    @Override
    public MeterBinder getMeterBinder(MemcachedCache cache, Iterable<Tag> tags) {
        return new MemcachedCacheMetrics(cache, tags);
    }
}
