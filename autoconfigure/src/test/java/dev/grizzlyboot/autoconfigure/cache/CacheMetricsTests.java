package dev.grizzlyboot.autoconfigure.cache;

import java.util.concurrent.CompletableFuture;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.cache.metrics.MemcachedCacheMeterBinderProvider;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.metrics.CacheMetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class CacheMetricsTests {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GrizzlyMemcachedAutoConfiguration.class,
                    GrizzlyMemcachedCacheAutoConfiguration.class, GrizzlyMemcachedCacheMetricsAutoConfiguration.class,
                    CacheAutoConfiguration.class, CacheMetricsAutoConfiguration.class))
            .withUserConfiguration(CachingOn.class)
            .withBean(SimpleMeterRegistry.class)
            .withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                    "grizzly.memcached.cache.key-prefix=metrics-" + System.nanoTime());

    @Test
    void cachesKnownAtStartUpHaveBootsCacheMeters() {
        runner.withPropertyValues("spring.cache.cache-names=books").run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            Cache books = context.getBean(CacheManager.class).getCache("books");
            exercise(books);
            assertCounts(registry, "books");
        });
    }

    @Test
    void cachesCreatedAfterStartUpAreBoundToo() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.find("cache.gets").tag("cache", "late").meters()).isEmpty();
            Cache late = context.getBean(CacheManager.class).getCache("late");
            exercise(late);
            assertCounts(registry, "late");
        });
    }

    /**
     * The asynchronous reads of {@code @Cacheable} methods returning {@code CompletableFuture}
     * ({@code retrieve}) count as hits and misses too, and a value their loader produced as a put.
     */
    @Test
    void asynchronousReadsAreCounted() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            Cache async = context.getBean(CacheManager.class).getCache("async");
            assertThat(async.retrieve("a").join()).isNull();
            assertThat(async.retrieve("a", () -> CompletableFuture.completedFuture("loaded")).join()).isEqualTo("loaded");
            assertThat(async.retrieve("a").join()).isNotNull();
            assertThat(count(registry, "cache.gets", "async", "result", "miss")).isEqualTo(2);
            assertThat(count(registry, "cache.gets", "async", "result", "hit")).isEqualTo(1);
            assertThat(count(registry, "cache.puts", "async")).isEqualTo(1);
        });
    }

    @Test
    void noCacheMetersWithoutAMeterRegistry() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(GrizzlyMemcachedAutoConfiguration.class,
                        GrizzlyMemcachedCacheAutoConfiguration.class, GrizzlyMemcachedCacheMetricsAutoConfiguration.class,
                        CacheAutoConfiguration.class, CacheMetricsAutoConfiguration.class))
                .withUserConfiguration(CachingOn.class)
                .withPropertyValues("grizzly.memcached.servers=" + memcached.addressList())
                .run(context -> assertThat(context).doesNotHaveBean(MemcachedCacheMeterBinderProvider.class)
                        .doesNotHaveBean(CreatedCacheMetricsBinder.class));
    }

    /** One miss, one put, two hits, one eviction that deletes and one that finds nothing. */
    private static void exercise(Cache cache) {
        assertThat(cache.get("a")).isNull();
        cache.put("a", "value");
        assertThat(cache.get("a").get()).isEqualTo("value");
        assertThat(cache.get("a", String.class)).isEqualTo("value");
        assertThat(cache.evictIfPresent("a")).isTrue();
        cache.evict("never-stored");
    }

    private static void assertCounts(MeterRegistry registry, String cacheName) {
        assertThat(count(registry, "cache.gets", cacheName, "result", "hit")).isEqualTo(2);
        assertThat(count(registry, "cache.gets", cacheName, "result", "miss")).isEqualTo(1);
        assertThat(count(registry, "cache.puts", cacheName)).isEqualTo(1);
        assertThat(count(registry, "cache.evictions", cacheName)).isEqualTo(2);
        assertThat(count(registry, "cache.removals", cacheName)).isEqualTo(1);
    }

    private static double count(MeterRegistry registry, String name, String cacheName, String... tags) {
        FunctionCounter counter = registry.get(name).tag("cache", cacheName).tag("cache.manager", "cacheManager")
                .tags(tags).functionCounter();
        return counter.count();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class CachingOn {
    }
}
