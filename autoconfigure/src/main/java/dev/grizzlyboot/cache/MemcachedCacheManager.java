package dev.grizzlyboot.cache;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import dev.grizzlyboot.memcached.MemcachedClient;
import org.springframework.cache.Cache;
import org.springframework.cache.support.AbstractCacheManager;

/**
 * A Spring {@link org.springframework.cache.CacheManager} of {@link MemcachedCache}s on one
 * {@link MemcachedClient}. Caches configured up front get their own configuration; any other
 * name gets a cache with the default configuration on first use, unless creation on demand is
 * disabled (then {@link #getCache} answers {@code null} for unknown names). Build one with
 * {@link #builder(MemcachedClient)}; it works as a plain object or as a bean. Thread-safe.
 *
 * <p>A {@link Cache#clear()} is seen at once by the instance that did it and within the
 * generation refresh interval (default 1 s) by other instances sharing the memcached. The
 * manager does not own the client: close the client yourself.
 */
public final class MemcachedCacheManager extends AbstractCacheManager {

    /** How long a cache trusts its local copy of its generation unless told otherwise. */
    public static final Duration DEFAULT_GENERATION_REFRESH_INTERVAL = Duration.ofSeconds(1);

    private final MemcachedClient client;
    private final MemcachedCacheConfiguration defaults;
    private final Map<String, MemcachedCacheConfiguration> initialCaches;
    private final boolean createOnMissingCache;
    private final boolean propagateErrors;
    private final Duration generationRefreshInterval;
    /** Every cache ever made, so that re-initialisation (as a bean) keeps the same instances. */
    private final ConcurrentMap<String, MemcachedCache> caches = new ConcurrentHashMap<>();
    private final List<Consumer<? super MemcachedCache>> creationListeners = new CopyOnWriteArrayList<>();

    private MemcachedCacheManager(Builder builder) {
        this.client = builder.client;
        this.defaults = builder.defaults;
        Map<String, MemcachedCacheConfiguration> initial = new LinkedHashMap<>(builder.configurations);
        builder.initialNames.forEach(name -> initial.putIfAbsent(name, builder.defaults));
        this.initialCaches = Collections.unmodifiableMap(initial);
        this.createOnMissingCache = builder.createOnMissingCache;
        this.propagateErrors = builder.propagateErrors;
        this.generationRefreshInterval = builder.generationRefreshInterval;
        initializeCaches();
    }

    /** A builder for a manager on {@code client}. */
    public static Builder builder(MemcachedClient client) {
        return new Builder(client);
    }

    /** The configuration caches get when they are created on demand. */
    public MemcachedCacheConfiguration getDefaultCacheConfiguration() {
        return defaults;
    }

    /** The configuration of every cache that exists now, by name. */
    public Map<String, MemcachedCacheConfiguration> getCacheConfigurations() {
        Map<String, MemcachedCacheConfiguration> configurations = new LinkedHashMap<>();
        for (String name : getCacheNames()) {
            configurations.put(name, ((MemcachedCache) Objects.requireNonNull(getCache(name))).getConfiguration());
        }
        return configurations;
    }

    /** Whether unknown cache names get a cache with the defaults ({@code true} unless disabled). */
    public boolean isCreateOnMissingCache() {
        return createOnMissingCache;
    }

    /** Whether memcached failures propagate as exceptions instead of being logged and bypassed. */
    public boolean isPropagateErrors() {
        return propagateErrors;
    }

    @Override
    protected Collection<? extends Cache> loadCaches() {
        return initialCaches.entrySet().stream().map(entry -> cache(entry.getKey(), entry.getValue())).toList();
    }

    /**
     * Tells {@code listener} about every cache created on demand from now on (caches that exist
     * already are in {@link #getCacheNames()}), for example to bind its metrics. Called on the thread
     * that first asked for the cache, before the cache is handed out; must be quick.
     */
    public void onCacheCreated(Consumer<? super MemcachedCache> listener) {
        creationListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    protected Cache getMissingCache(String name) {
        if (!createOnMissingCache) {
            return null;
        }
        boolean[] created = new boolean[1];
        MemcachedCache cache = caches.computeIfAbsent(name, n -> {
            created[0] = true;
            return newCache(n, defaults);
        });
        if (created[0]) {
            creationListeners.forEach(listener -> listener.accept(cache));
        }
        return cache;
    }

    private MemcachedCache cache(String name, MemcachedCacheConfiguration configuration) {
        return caches.computeIfAbsent(name, n -> newCache(n, configuration));
    }

    private MemcachedCache newCache(String name, MemcachedCacheConfiguration configuration) {
        return new MemcachedCache(name, client, configuration, propagateErrors, generationRefreshInterval);
    }

    /** Collects the settings of a {@link MemcachedCacheManager}. Not thread-safe. */
    public static final class Builder {

        private final MemcachedClient client;
        private MemcachedCacheConfiguration defaults = MemcachedCacheConfiguration.defaultCacheConfig();
        private final Map<String, MemcachedCacheConfiguration> configurations = new LinkedHashMap<>();
        private final Set<String> initialNames = new LinkedHashSet<>();
        private boolean createOnMissingCache = true;
        private boolean propagateErrors;
        private Duration generationRefreshInterval = DEFAULT_GENERATION_REFRESH_INTERVAL;

        private Builder(MemcachedClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /** The configuration of caches not configured by name (default {@link MemcachedCacheConfiguration#defaultCacheConfig()}). */
        public Builder cacheDefaults(MemcachedCacheConfiguration configuration) {
            this.defaults = Objects.requireNonNull(configuration, "configuration");
            return this;
        }

        /** A cache that exists from the start with its own configuration. */
        public Builder withCacheConfiguration(String cacheName, MemcachedCacheConfiguration configuration) {
            configurations.put(Objects.requireNonNull(cacheName, "cacheName"), Objects.requireNonNull(configuration, "configuration"));
            return this;
        }

        /** Caches that exist from the start; those not configured by name get the defaults. */
        public Builder initialCacheNames(Set<String> cacheNames) {
            cacheNames.forEach(name -> initialNames.add(Objects.requireNonNull(name, "cache name")));
            return this;
        }

        /** Only the initial and configured caches exist; other names get no cache ({@code null}). */
        public Builder disableCreateOnMissingCache() {
            this.createOnMissingCache = false;
            return this;
        }

        /**
         * {@code false} (the default): a memcached failure is logged and the cache is bypassed
         * (reads miss, so the cached method runs; writes are skipped). {@code true}: it is thrown
         * as the client's {@link dev.grizzlyboot.memcached.MemcachedException}.
         */
        public Builder propagateErrors(boolean propagate) {
            this.propagateErrors = propagate;
            return this;
        }

        /**
         * How long a cache uses its local copy of its generation before reading it from memcached
         * again (default 1 s): the longest time another instance's clear can go unnoticed. One
         * extra round trip per cache per interval, on the first read after it passes.
         */
        public Builder generationRefreshInterval(Duration interval) {
            Objects.requireNonNull(interval, "interval");
            if (interval.isNegative()) {
                throw new IllegalArgumentException("generationRefreshInterval must not be negative, was " + interval);
            }
            this.generationRefreshInterval = interval;
            return this;
        }

        /** The manager, with its initial caches made; nothing is sent to memcached until a cache is used. */
        public MemcachedCacheManager build() {
            return new MemcachedCacheManager(this);
        }
    }
}
