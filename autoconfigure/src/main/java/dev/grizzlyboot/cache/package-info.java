/**
 * Spring's cache abstraction on the grizzly-boot memcached client: {@link
 * dev.grizzlyboot.cache.MemcachedCacheManager}, {@link dev.grizzlyboot.cache.MemcachedCache} and
 * {@link dev.grizzlyboot.cache.MemcachedCacheConfiguration}. Plain Spring only (no Spring Boot),
 * so it works with or without the auto-configuration; see {@code docs/cache.md}.
 */
package dev.grizzlyboot.cache;
