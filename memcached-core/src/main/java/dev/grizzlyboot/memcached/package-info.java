/**
 * The memcached client: {@link dev.grizzlyboot.memcached.MemcachedClient} (asynchronous) and
 * {@link dev.grizzlyboot.memcached.BlockingMemcachedClient}, built with
 * {@link dev.grizzlyboot.memcached.MemcachedClientBuilder}; results of bulk calls and the typed
 * exceptions every operation fails with. Start here.
 */
package dev.grizzlyboot.memcached;
