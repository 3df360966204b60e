package dev.grizzlyboot.cache;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import dev.grizzlyboot.memcached.BlockingMemcachedClient;
import dev.grizzlyboot.memcached.CasResult;
import dev.grizzlyboot.memcached.CasValue;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.MemcachedException;
import org.springframework.cache.support.AbstractValueAdaptingCache;
import org.springframework.cache.support.NullValue;

/**
 * A Spring {@link org.springframework.cache.Cache} whose entries live in memcached. Reads cost one
 * round trip; writes use {@code set} with the configured (jittered) TTL, {@link #putIfAbsent} uses
 * memcached's atomic {@code add}, and {@link #clear()} bumps a generation number that is part of
 * every key (see {@link MemcachedCacheManager} for how fast other instances notice). Values are
 * encoded by the client's transcoder.
 *
 * <p>When memcached fails, the cache either throws the {@link MemcachedException} or, by
 * default, logs it and carries on as if the entry were missing (reads) or the write had not been
 * asked for. Thread-safe; get instances from a {@link MemcachedCacheManager}.
 */
public final class MemcachedCache extends AbstractValueAdaptingCache {

    /**
     * How a cached {@code null} is stored: a string nobody caches by accident, which every
     * transcoder can write (a serialized {@link NullValue} would need the allow-list).
     */
    static final String NULL_MARKER = "\u0000grizzly-boot:null\u0000";
    /** Round trips an operation of this cache may take one after another: the generation, then the entry. */
    private static final int STEPS = 2;

    private final String name;
    private final MemcachedClient client;
    private final MemcachedCacheConfiguration configuration;
    private final CacheKeys keys;
    private final Generation generation;
    private final CacheErrors errors;
    private final InFlightLoads loads = new InFlightLoads();
    private final MemcachedCacheStatistics statistics = new MemcachedCacheStatistics();
    /** Async results are completed here, never on the client's I/O threads, which must not block. */
    private final Executor callbacks = ForkJoinPool.commonPool();

    MemcachedCache(String name, MemcachedClient client, MemcachedCacheConfiguration configuration,
            boolean propagateErrors, Duration generationRefreshInterval) {
        super(configuration.isCacheNullValues());
        this.name = name;
        this.client = client;
        this.configuration = configuration;
        this.keys = new CacheKeys(configuration.getKeyPrefix(), name);
        this.errors = new CacheErrors(name, propagateErrors);
        this.generation = new Generation(client, keys.generationKey(), generationRefreshInterval, errors);
    }

    @Override
    public String getName() {
        return name;
    }

    /** The memcached client. */
    @Override
    public MemcachedClient getNativeCache() {
        return client;
    }

    /** This cache's TTL, jitter, null-value and key-prefix settings. */
    public MemcachedCacheConfiguration getConfiguration() {
        return configuration;
    }

    /** What this cache has been asked to do so far: hits, misses, puts, evictions. */
    public MemcachedCacheStatistics getStatistics() {
        return statistics;
    }

    @Override
    protected Object lookup(Object key) {
        Object found = read(key);
        statistics.read(found);
        return found;
    }

    /** Stores the value with {@code set}, waiting for memcached's answer. */
    @Override
    public void put(Object key, Object value) {
        await(write(key, toStoreValue(value)), "put", key, null);
    }

    /**
     * Stores the value with memcached's {@code add}, so only the first of concurrent writers (in
     * any JVM) wins. A cached {@code null} that a cache allowing nulls wrote is absent to one that
     * does not, which replaces it with {@code cas}, so that a value written meanwhile still wins.
     * A failure, or an entry that changes under every try, skips the write as other writes are
     * skipped when memcached fails.
     */
    @Override
    public ValueWrapper putIfAbsent(Object key, Object value) {
        Object stored = toStoreValue(value);
        BlockingMemcachedClient blocking = client.blocking();
        try {
            // The entry may expire, or change, between a failed add and what follows: try again, a few times.
            for (int attempt = 0; attempt < 3; attempt++) {
                String entryKey = keys.entryKey(blocking.await(generation.current(), 1), key);
                if (blocking.await(client.add(entryKey, toMemcached(stored), nextTtl()), 1)) {
                    statistics.put();
                    return null;
                }
                CasValue<Object> existing = blocking.await(client.gets(entryKey), 1);
                if (existing == null) {
                    continue;
                }
                Object found = fromMemcached(existing.value());
                if (found != null) {
                    return toValueWrapper(found);
                }
                if (existing.cas() == 0) {
                    throw new MemcachedException("memcached gave the cached null of '" + entryKey
                            + "' no CAS token (started with -C?), so it cannot be replaced safely");
                }
                if (blocking.await(client.cas(entryKey, toMemcached(stored), existing.cas(), nextTtl()), 1)
                        == CasResult.STORED) {
                    statistics.put();
                    return null;
                }
            }
            throw new MemcachedException("the entry '" + key + "' changed under each of 3 tries to add it");
        } catch (RuntimeException e) {
            return errors.handle("putIfAbsent", key, e, null);
        }
    }

    @Override
    public void evict(Object key) {
        evictIfPresent(key);
    }

    /** Deletes the entry; {@code true} if memcached held it. */
    @Override
    public boolean evictIfPresent(Object key) {
        CompletableFuture<Boolean> delete = generation.current()
                .thenCompose(current -> client.delete(keys.entryKey(current, key)));
        boolean removed = await(delete, "evict", key, false);
        statistics.evicted(removed);
        return removed;
    }

    /**
     * Makes every entry unreachable by bumping the cache's generation in memcached: at once for
     * this instance, within the generation refresh interval for others sharing the memcached.
     * The old entries stay in memcached until they expire or are evicted.
     */
    @Override
    public void clear() {
        await(generation.increment(), "clear", "*", null);
    }

    /**
     * Returns the cached value or else calls {@code valueLoader} once per key in this JVM at a
     * time: concurrent callers for the same key wait for that call and share its result.
     */
    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(Object key, Callable<T> valueLoader) {
        Object stored = lookup(key);
        if (stored != null) {
            return (T) fromStoreValue(stored);
        }
        CompletableFuture<Object> load = loads.join(String.valueOf(key), () -> {
            // The previous load of this key may have finished just after our miss.
            Object again = read(key);
            if (again != null) {
                return CompletableFuture.completedFuture(fromStoreValue(again));
            }
            T value;
            try {
                value = valueLoader.call();
            } catch (Exception e) {
                return CompletableFuture.failedFuture(new ValueRetrievalException(key, valueLoader, e));
            }
            if (value != null || isAllowNullValues()) {
                put(key, value);
            }
            return CompletableFuture.completedFuture(value);
        });
        try {
            return (T) load.get();
        } catch (ExecutionException e) {
            throw CacheErrors.unchecked(CacheErrors.unwrap(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ValueRetrievalException(key, valueLoader, e);
        }
    }

    /**
     * The entry as a {@link ValueWrapper}, or {@code null} on a miss, in a future that completes
     * off the client's I/O threads.
     */
    @Override
    public CompletableFuture<?> retrieve(Object key) {
        return onCallbackThread(countedLookupOrMiss(key).thenApply(found -> found == null ? null : toValueWrapper(found)));
    }

    /**
     * The cached value or else the value {@code valueLoader} produces, which is then cached;
     * loads of one key in this JVM are shared as in {@link #get(Object, Callable)}. The loader is
     * called and the result completed off the client's I/O threads.
     */
    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        CompletableFuture<Object> result = countedLookupOrMiss(key).thenComposeAsync(stored -> stored != null
                ? CompletableFuture.completedFuture(fromStoreValue(stored))
                : loads.join(String.valueOf(key), () -> loadAsync(key, valueLoader)), callbacks);
        return (CompletableFuture<T>) onCallbackThread(result);
    }

    /** The memcached key an entry of this cache has now; for tests that look at the server directly. */
    String memcachedKey(Object key) {
        return keys.entryKey(generation.current().join(), key);
    }

    private <T> CompletableFuture<T> loadAsync(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        // As in get(key, loader): the previous load of this key may have finished just after our miss.
        return lookupOrMiss(key).thenComposeAsync(again -> {
            if (again != null) {
                @SuppressWarnings("unchecked")
                T value = (T) fromStoreValue(again);
                return CompletableFuture.completedFuture(value);
            }
            return valueLoader.get().thenCompose(value -> value == null && !isAllowNullValues()
                    ? CompletableFuture.completedFuture(value)
                    : write(key, toStoreValue(value))
                            .exceptionally(error -> errors.handle("put", key, error, null))
                            .thenApply(written -> value));
        }, callbacks);
    }

    /** {@link #lookup} without counting a hit or miss. */
    private Object read(Object key) {
        return await(lookupAsync(key), "get", key, null);
    }

    /** The stored value (a {@link NullValue} for a cached null), or {@code null} on a miss. */
    private CompletableFuture<Object> lookupAsync(Object key) {
        return generation.current()
                .thenCompose(current -> client.get(keys.entryKey(current, key)))
                .thenApply(this::fromMemcached);
    }

    /** {@link #lookupAsync} with tolerated errors turned into misses. */
    private CompletableFuture<Object> lookupOrMiss(Object key) {
        return lookupAsync(key).handle((stored, error) -> error == null ? stored : errors.handle("get", key, error, null));
    }

    /** {@link #lookupOrMiss}, counting a hit or miss. */
    private CompletableFuture<Object> countedLookupOrMiss(Object key) {
        return lookupOrMiss(key).whenComplete((found, error) -> statistics.read(found));
    }

    private CompletableFuture<Void> write(Object key, Object storeValue) {
        statistics.put();
        return generation.current()
                .thenCompose(current -> client.set(keys.entryKey(current, key), toMemcached(storeValue), nextTtl()));
    }

    private Duration nextTtl() {
        return JitteredTtl.next(configuration.getTtl(), configuration.getTtlJitter(), ThreadLocalRandom.current());
    }

    private static Object toMemcached(Object storeValue) {
        return storeValue instanceof NullValue ? NULL_MARKER : storeValue;
    }

    private Object fromMemcached(Object value) {
        if (NULL_MARKER.equals(value)) {
            // Written by a cache that allows nulls; one that does not treats it as absent.
            return isAllowNullValues() ? NullValue.INSTANCE : null;
        }
        return value;
    }

    /** Waits as the client's blocking calls do: a lone caller spins for its answer before it parks. */
    private <T> T await(CompletableFuture<T> future, String operation, Object key, T fallback) {
        try {
            return client.blocking().await(future, STEPS);
        } catch (RuntimeException e) {
            return errors.handle(operation, key, e, fallback);
        }
    }

    private <T> CompletableFuture<T> onCallbackThread(CompletableFuture<T> source) {
        CompletableFuture<T> result = new CompletableFuture<>();
        source.whenCompleteAsync((value, error) -> {
            if (error == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(CacheErrors.unwrap(error));
            }
        }, callbacks);
        return result;
    }
}
