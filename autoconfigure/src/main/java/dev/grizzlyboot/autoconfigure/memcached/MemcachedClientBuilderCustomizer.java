package dev.grizzlyboot.autoconfigure.memcached;

import dev.grizzlyboot.memcached.MemcachedClientBuilder;

/**
 * Adjusts the auto-configured {@link MemcachedClientBuilder} after the properties are applied, for
 * settings that have no property (a transcoder with your classes on the deserialization allow-list,
 * for example). Beans of this type run in {@code @Order}; called once, on the start-up thread.
 */
@FunctionalInterface
public interface MemcachedClientBuilderCustomizer {

    /** Customizes the builder. */
    void customize(MemcachedClientBuilder builder);
}
