/**
 * Auto-configuration of the Spring cache on memcached: the
 * {@link dev.grizzlyboot.cache.MemcachedCacheManager} bean and how it fits Spring Boot's caching.
 */
package dev.grizzlyboot.autoconfigure.cache;
