/**
 * Auto-configuration of the memcached client: {@code grizzly.memcached.*} properties, where the
 * servers are ({@link dev.grizzlyboot.autoconfigure.memcached.MemcachedConnectionDetails}) and the
 * {@link dev.grizzlyboot.memcached.MemcachedClient} bean.
 */
package dev.grizzlyboot.autoconfigure.memcached;
