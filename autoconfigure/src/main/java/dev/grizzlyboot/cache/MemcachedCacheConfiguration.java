package dev.grizzlyboot.cache;

import java.time.Duration;
import java.util.Objects;

/**
 * The settings of one memcached-backed cache: time to live, TTL jitter, whether {@code null}
 * values are cached, and the key prefix. Start from {@link #defaultCacheConfig()} and derive
 * copies with the {@code ttl}, {@code ttlJitter}, {@code cacheNullValues} and {@code keyPrefix}
 * methods. Immutable and thread-safe.
 *
 * <p>Defaults: no expiry (TTL 0), no jitter, {@code null} values cached, no key prefix.
 */
public final class MemcachedCacheConfiguration {

    private static final MemcachedCacheConfiguration DEFAULTS = new MemcachedCacheConfiguration(Duration.ZERO, 0, true, "");

    private final Duration ttl;
    private final double ttlJitter;
    private final boolean cacheNullValues;
    private final String keyPrefix;

    private MemcachedCacheConfiguration(Duration ttl, double ttlJitter, boolean cacheNullValues, String keyPrefix) {
        this.ttl = ttl;
        this.ttlJitter = ttlJitter;
        this.cacheNullValues = cacheNullValues;
        this.keyPrefix = keyPrefix;
    }

    /** No expiry, no jitter, {@code null} values cached, no key prefix. */
    public static MemcachedCacheConfiguration defaultCacheConfig() {
        return DEFAULTS;
    }

    /**
     * A copy with the given time to live. {@link Duration#ZERO} means entries never expire (memcached
     * may still evict them when memory runs out); fractions of a second round up.
     *
     * @throws IllegalArgumentException if {@code ttl} is negative
     */
    public MemcachedCacheConfiguration ttl(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must not be negative, was " + ttl);
        }
        return new MemcachedCacheConfiguration(ttl, ttlJitter, cacheNullValues, keyPrefix);
    }

    /**
     * A copy with the given TTL jitter {@code j}: each write gets a TTL drawn uniformly from the
     * whole seconds in {@code [ttl*(1-j), ttl*(1+j)]} (at least 1 s), so that entries written
     * together do not all expire together. Ignored when the TTL is 0.
     *
     * @throws IllegalArgumentException unless {@code 0 <= jitter < 1}
     */
    public MemcachedCacheConfiguration ttlJitter(double jitter) {
        if (!(jitter >= 0 && jitter < 1)) {
            throw new IllegalArgumentException("ttlJitter must be >= 0 and < 1, was " + jitter);
        }
        return new MemcachedCacheConfiguration(ttl, jitter, cacheNullValues, keyPrefix);
    }

    /**
     * A copy that does or does not cache {@code null} values. When off, putting {@code null}
     * fails with {@link IllegalArgumentException} (as in Spring's other caches; use
     * {@code unless = "#result == null"}), and a loader returning {@code null} is not cached.
     */
    public MemcachedCacheConfiguration cacheNullValues(boolean cacheNullValues) {
        return new MemcachedCacheConfiguration(ttl, ttlJitter, cacheNullValues, keyPrefix);
    }

    /**
     * A copy whose memcached keys start with {@code prefix + ":"}, so that several applications
     * can share one memcached without seeing each other's entries. The empty string means no prefix.
     */
    public MemcachedCacheConfiguration keyPrefix(String prefix) {
        return new MemcachedCacheConfiguration(ttl, ttlJitter, cacheNullValues, Objects.requireNonNull(prefix, "keyPrefix"));
    }

    /** The time to live; {@link Duration#ZERO} means no expiry. */
    public Duration getTtl() {
        return ttl;
    }

    /** The TTL jitter, in {@code [0, 1)}. */
    public double getTtlJitter() {
        return ttlJitter;
    }

    /** Whether {@code null} values are cached. */
    public boolean isCacheNullValues() {
        return cacheNullValues;
    }

    /** The key prefix; empty for none. */
    public String getKeyPrefix() {
        return keyPrefix;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MemcachedCacheConfiguration that
                && ttl.equals(that.ttl)
                && Double.compare(ttlJitter, that.ttlJitter) == 0
                && cacheNullValues == that.cacheNullValues
                && keyPrefix.equals(that.keyPrefix);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ttl, ttlJitter, cacheNullValues, keyPrefix);
    }

    @Override
    public String toString() {
        return "MemcachedCacheConfiguration[ttl=" + ttl + ", ttlJitter=" + ttlJitter + ", cacheNullValues="
                + cacheNullValues + ", keyPrefix='" + keyPrefix + "']";
    }
}
