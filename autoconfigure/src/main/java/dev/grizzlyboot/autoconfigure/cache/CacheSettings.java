package dev.grizzlyboot.autoconfigure.cache;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedProperties;
import dev.grizzlyboot.cache.MemcachedCacheConfiguration;

/** Turns {@code grizzly.memcached.cache.*} properties into cache configurations. */
final class CacheSettings {

    private CacheSettings() {
    }

    /** The configuration every cache starts from. */
    static MemcachedCacheConfiguration defaults(GrizzlyMemcachedProperties.Cache cache) {
        return MemcachedCacheConfiguration.defaultCacheConfig()
                .ttl(cache.getDefaultTtl())
                .ttlJitter(cache.getTtlJitter())
                .keyPrefix(cache.getKeyPrefix())
                .cacheNullValues(cache.isCacheNullValues());
    }

    /** One named cache: the settings it has over the defaults. */
    static MemcachedCacheConfiguration of(GrizzlyMemcachedProperties.CacheSpec spec, MemcachedCacheConfiguration defaults) {
        MemcachedCacheConfiguration config = defaults;
        if (spec.getTtl() != null) {
            config = config.ttl(spec.getTtl());
        }
        if (spec.getTtlJitter() != null) {
            config = config.ttlJitter(spec.getTtlJitter());
        }
        if (spec.getKeyPrefix() != null) {
            config = config.keyPrefix(spec.getKeyPrefix());
        }
        if (spec.getCacheNullValues() != null) {
            config = config.cacheNullValues(spec.getCacheNullValues());
        }
        return config;
    }
}
