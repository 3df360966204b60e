package dev.grizzlyboot.autoconfigure.cache;

import dev.grizzlyboot.cache.MemcachedCacheManager;

/**
 * Adjusts the auto-configured {@link MemcachedCacheManager.Builder} after the properties are applied,
 * for example to configure caches in code with {@code withCacheConfiguration}. Beans of this type run
 * in {@code @Order}; called once, on the start-up thread.
 */
@FunctionalInterface
public interface MemcachedCacheManagerBuilderCustomizer {

    /** Customizes the builder. */
    void customize(MemcachedCacheManager.Builder builder);
}
