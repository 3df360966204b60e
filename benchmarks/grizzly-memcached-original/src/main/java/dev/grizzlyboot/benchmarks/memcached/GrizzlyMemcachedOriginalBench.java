package dev.grizzlyboot.benchmarks.memcached;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.glassfish.grizzly.memcached.GrizzlyMemcachedCache;
import org.glassfish.grizzly.memcached.GrizzlyMemcachedCacheManager;
import org.glassfish.grizzly.memcached.MemcachedCache;

/**
 * The original grizzly-memcached 1.3.13 (Grizzly 2.3.30), binary protocol (the only one it
 * speaks), with its defaults: a pool of 5..unbounded connections per server, one request in
 * flight per borrowed connection, failover on; with several servers its own consistent hash
 * ({@code ConsistentHashStore}: MD5, 160 points per server). Values are {@code byte[]}, which it
 * stores raw under its byte-array type flag. Its bulk calls take a {@code Set}, so the key lists
 * are copied into one per call.
 */
final class GrizzlyMemcachedOriginalBench implements BenchClient {

    private final GrizzlyMemcachedCacheManager manager;
    private final MemcachedCache<String, byte[]> cache;

    /** With an operation timeout, it becomes the response timeout (10 s by default). */
    GrizzlyMemcachedOriginalBench(List<String> servers, OptionalLong timeoutMillis) {
        Set<SocketAddress> addresses = new LinkedHashSet<>();
        for (String server : servers) {
            int colon = server.lastIndexOf(':');
            addresses.add(new InetSocketAddress(server.substring(0, colon), Integer.parseInt(server.substring(colon + 1))));
        }
        manager = new GrizzlyMemcachedCacheManager.Builder().build();
        GrizzlyMemcachedCache.Builder<String, byte[]> builder = manager.createCacheBuilder("benchmark");
        timeoutMillis.ifPresent(builder::responseTimeoutInMillis);
        cache = builder.servers(addresses).build();
    }

    @Override
    public String label() {
        return "grizzly-memcached 1.3.13 (own JVM)";
    }

    @Override
    public byte[] get(String key) {
        return cache.get(key, false);
    }

    @Override
    public void set(String key, byte[] value) {
        if (!cache.set(key, value, Expiry.TTL_SECONDS, false)) {
            throw new IllegalStateException("grizzly-memcached did not store " + key);
        }
    }

    @Override
    public void delete(String key) {
        cache.delete(key, false);
    }

    @Override
    public int getMulti(List<String> keys) {
        return cache.getMulti(new LinkedHashSet<>(keys)).size();
    }

    @Override
    public void setMulti(Map<String, byte[]> values) {
        Map<String, Boolean> stored = cache.setMulti(values, Expiry.TTL_SECONDS);
        if (stored.size() != values.size() || stored.containsValue(Boolean.FALSE)) {
            throw new IllegalStateException("grizzly-memcached setMulti stored " + stored.values().stream()
                    .filter(Boolean.TRUE::equals).count() + " of " + values.size() + " keys");
        }
    }

    @Override
    public void deleteMulti(List<String> keys) {
        cache.deleteMulti(new LinkedHashSet<>(keys));
    }

    @Override
    public String bulkWriteNote() {
        return "setMulti/deleteMulti: quiet SETQ/DELETEQ for all keys of a server but the last, acknowledged "
                + "SET/DELETE for the last, on one pooled connection per server";
    }

    @Override
    public void close() {
        manager.shutdown();
    }
}
