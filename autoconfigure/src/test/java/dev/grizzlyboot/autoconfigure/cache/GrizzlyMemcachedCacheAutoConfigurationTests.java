package dev.grizzlyboot.autoconfigure.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.autoconfigure.YamlFiles;
import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.cache.MemcachedCache;
import dev.grizzlyboot.cache.MemcachedCacheConfiguration;
import dev.grizzlyboot.cache.MemcachedCacheManager;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.CacheManagerCustomizer;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.cache.interceptor.CacheResolver;
import org.springframework.cache.interceptor.SimpleCacheResolver;
import org.springframework.cache.support.NoOpCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class GrizzlyMemcachedCacheAutoConfigurationTests {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GrizzlyMemcachedAutoConfiguration.class,
                    GrizzlyMemcachedCacheAutoConfiguration.class, CacheAutoConfiguration.class))
            .withPropertyValues("grizzly.memcached.servers=" + memcached.addressList());

    private final ApplicationContextRunner caching = runner.withUserConfiguration(CachingOn.class);

    @Test
    void createsTheMemcachedCacheManagerWhenCachingIsEnabled() {
        caching.run(context -> {
            assertThat(context).hasSingleBean(CacheManager.class);
            MemcachedCacheManager manager = context.getBean(MemcachedCacheManager.class);
            assertThat(manager.getDefaultCacheConfiguration()).isEqualTo(MemcachedCacheConfiguration.defaultCacheConfig());
            assertThat(manager.isCreateOnMissingCache()).isTrue();
            assertThat(manager.isPropagateErrors()).isFalse();
            assertThat(manager.getCache("anything")).isInstanceOf(MemcachedCache.class);
            assertThat(manager.getCache("anything").getNativeCache()).isSameAs(context.getBean(MemcachedClient.class));
        });
    }

    @Test
    void noCacheManagerWithoutEnableCaching() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(MemcachedClient.class);
            assertThat(context).doesNotHaveBean(CacheManager.class);
        });
    }

    @Test
    void designContractYamlReachesTheCacheManager() {
        caching.withInitializer(YamlFiles.load("design-contract.yml"))
                .withPropertyValues("grizzly.memcached.servers=" + memcached.addressList()).run(context -> {
                    MemcachedCacheConfiguration defaults = MemcachedCacheConfiguration.defaultCacheConfig()
                            .ttl(Duration.ofMinutes(10)).ttlJitter(0.1).keyPrefix("myapp");
                    MemcachedCacheManager manager = context.getBean(MemcachedCacheManager.class);
                    assertThat(manager.getDefaultCacheConfiguration()).isEqualTo(defaults);
                    assertThat(manager.getCacheConfigurations()).containsEntry("books",
                            defaults.ttl(Duration.ofHours(1)).ttlJitter(0.2));
                    assertThat(((MemcachedCache) manager.getCache("other")).getConfiguration()).isEqualTo(defaults);
                });
    }

    @Test
    void designContractYamlServersReachTheClient() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(GrizzlyMemcachedAutoConfiguration.class))
                .withInitializer(YamlFiles.load("design-contract.yml")).run(context ->
                assertThat(context.getBean(MemcachedClient.class).servers()).containsExactly(
                        ServerAddress.parse("127.0.0.1:11211"), ServerAddress.parse("127.0.0.1:11212")));
    }

    @Test
    void everyCachePropertyReachesTheCacheManager() {
        caching.withPropertyValues("grizzly.memcached.cache.default-ttl=90s", "grizzly.memcached.cache.ttl-jitter=0.25",
                "grizzly.memcached.cache.key-prefix=shop", "grizzly.memcached.cache.cache-null-values=false",
                "grizzly.memcached.cache.propagate-errors=true",
                "grizzly.memcached.cache.caches.books.ttl=2h", "grizzly.memcached.cache.caches.books.ttl-jitter=0.5",
                "grizzly.memcached.cache.caches.books.key-prefix=library",
                "grizzly.memcached.cache.caches.books.cache-null-values=true",
                "grizzly.memcached.cache.caches.prices.ttl=0").run(context -> {
                    MemcachedCacheManager manager = context.getBean(MemcachedCacheManager.class);
                    MemcachedCacheConfiguration defaults = MemcachedCacheConfiguration.defaultCacheConfig()
                            .ttl(Duration.ofSeconds(90)).ttlJitter(0.25).keyPrefix("shop").cacheNullValues(false);
                    assertThat(manager.getDefaultCacheConfiguration()).isEqualTo(defaults);
                    assertThat(manager.isPropagateErrors()).isTrue();
                    assertThat(manager.getCacheConfigurations())
                            .containsEntry("books", defaults.ttl(Duration.ofHours(2)).ttlJitter(0.5)
                                    .keyPrefix("library").cacheNullValues(true))
                            .containsEntry("prices", defaults.ttl(Duration.ZERO));
                });
    }

    /**
     * {@code generation-refresh-interval} reaches the caches: at {@code 0} a clear made by another
     * instance (its own client and manager) is seen by the very next read, where the default (1 s) would
     * keep the generation read just before.
     */
    @Test
    void generationRefreshIntervalReachesTheCaches() {
        caching.withPropertyValues("grizzly.memcached.cache.generation-refresh-interval=0").run(context -> {
            Cache books = context.getBean(MemcachedCacheManager.class).getCache("books");
            books.put("isbn-1", "Dune");
            assertThat(books.get("isbn-1").get()).isEqualTo("Dune");
            try (MemcachedClient otherClient = MemcachedClient.builder().servers(memcached.addressList()).build()) {
                MemcachedCacheManager.builder(otherClient).build().getCache("books").clear();
            }
            assertThat(books.get("isbn-1")).as("the other instance's clear, seen at once").isNull();
        });
    }

    @Test
    void aMemcachedCacheConfigurationBeanReplacesThePropertyDefaults() {
        MemcachedCacheConfiguration own = MemcachedCacheConfiguration.defaultCacheConfig()
                .ttl(Duration.ofMinutes(5)).keyPrefix("mine").cacheNullValues(false);
        caching.withBean(MemcachedCacheConfiguration.class, () -> own)
                .withPropertyValues("grizzly.memcached.cache.default-ttl=10m", "grizzly.memcached.cache.key-prefix=props",
                        "grizzly.memcached.cache.caches.books.ttl=1h")
                .run(context -> {
                    MemcachedCacheManager manager = context.getBean(MemcachedCacheManager.class);
                    assertThat(manager.getDefaultCacheConfiguration()).isEqualTo(own);
                    assertThat(((MemcachedCache) manager.getCache("other")).getConfiguration()).isEqualTo(own);
                    // Settings given per cache name still apply, over the bean's.
                    assertThat(manager.getCacheConfigurations()).containsEntry("books", own.ttl(Duration.ofHours(1)));
                });
    }

    @Test
    void cacheNamesFixTheSetOfCaches() {
        caching.withPropertyValues("spring.cache.cache-names=books,authors").run(context -> {
            MemcachedCacheManager manager = context.getBean(MemcachedCacheManager.class);
            assertThat(manager.getCacheNames()).containsExactlyInAnyOrder("books", "authors");
            assertThat(manager.isCreateOnMissingCache()).isFalse();
            assertThat(manager.getCache("books")).isNotNull();
            assertThat(manager.getCache("unknown")).isNull();
        });
    }

    @Test
    void cacheManagerCustomizersOfTheRightTypeAreApplied() {
        caching.withUserConfiguration(Customizers.class).run(context -> {
            Customizers customizers = context.getBean(Customizers.class);
            assertThat(customizers.customized).containsExactly(context.getBean(MemcachedCacheManager.class));
            assertThat(customizers.wrongTypeCalled).isFalse();
        });
    }

    @Test
    void builderCustomizersCanConfigureCachesInCode() {
        caching.withBean(MemcachedCacheManagerBuilderCustomizer.class, () -> builder -> builder.withCacheConfiguration(
                "fromCode", MemcachedCacheConfiguration.defaultCacheConfig().ttl(Duration.ofSeconds(42)))).run(context ->
                assertThat(context.getBean(MemcachedCacheManager.class).getCacheConfigurations().get("fromCode").getTtl())
                        .isEqualTo(Duration.ofSeconds(42)));
    }

    @Test
    void backsOffWhenTheApplicationHasItsOwnCacheManager() {
        caching.withUserConfiguration(OwnCacheManager.class).run(context -> {
            assertThat(context).hasSingleBean(CacheManager.class);
            assertThat(context).getBean(CacheManager.class).isInstanceOf(ConcurrentMapCacheManager.class);
            assertThat(context).hasSingleBean(MemcachedClient.class);
        });
    }

    @Test
    void backsOffWhenTheApplicationHasACacheResolver() {
        caching.withUserConfiguration(OwnCacheResolver.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(MemcachedCacheManager.class);
        });
    }

    @Test
    void usesTheApplicationsOwnClient() {
        caching.withBean("ownClient", MemcachedClient.class, () -> MemcachedClient.builder().servers(memcached.addressList()).build())
                .run(context -> {
                    assertThat(context).hasSingleBean(MemcachedClient.class);
                    assertThat(context.getBean(MemcachedCacheManager.class).getCache("books").getNativeCache())
                            .isSameAs(context.getBean("ownClient"));
                });
    }

    @Test
    void springCacheTypeNoneGivesBootsNoOpCacheManager() {
        caching.withPropertyValues("spring.cache.type=none").run(context -> {
            assertThat(context).doesNotHaveBean(MemcachedCacheManager.class);
            assertThat(context).getBean(CacheManager.class).isInstanceOf(NoOpCacheManager.class);
        });
    }

    @Test
    void springCacheTypeSimpleGivesBootsSimpleCacheManager() {
        caching.withPropertyValues("spring.cache.type=simple").run(context -> {
            assertThat(context).doesNotHaveBean(MemcachedCacheManager.class);
            assertThat(context).getBean(CacheManager.class).isInstanceOf(ConcurrentMapCacheManager.class);
        });
    }

    @Test
    void noCacheManagerOfOursWithoutAMemcachedClient() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(GrizzlyMemcachedCacheAutoConfiguration.class, CacheAutoConfiguration.class))
                .withUserConfiguration(CachingOn.class).run(context -> {
                    assertThat(context).doesNotHaveBean(MemcachedCacheManager.class);
                    // Boot's own choice (Caffeine when it is on the class path, as it is for these tests).
                    assertThat(context).hasSingleBean(CacheManager.class);
                });
    }

    @Test
    void invalidCacheSettingsFailStartUpWithAClearMessage() {
        caching.withPropertyValues("grizzly.memcached.cache.ttl-jitter=1.5").run(context -> {
            assertThat(boundProperty(context.getStartupFailure())).isEqualTo("grizzly.memcached.cache.ttl-jitter");
            assertThat(context).getFailure().rootCause().hasMessage("must be at least 0 and below 1");
        });
        caching.withPropertyValues("grizzly.memcached.cache.caches.books.ttl=-5s").run(context -> {
            assertThat(boundProperty(context.getStartupFailure())).isEqualTo("grizzly.memcached.cache.caches.books.ttl");
            assertThat(context).getFailure().rootCause().hasMessage("must not be negative");
        });
        caching.withPropertyValues("grizzly.memcached.cache.default-ttl=soon").run(context ->
                assertThat(context).getFailure().hasStackTraceContaining("grizzly.memcached.cache.default-ttl"));
    }

    /** The property Boot's failure analysis reports for a start-up failure, or {@code null} if it is no bind error. */
    private static String boundProperty(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BindException bind && bind.getProperty() != null) {
                return bind.getProperty().getName().toString();
            }
        }
        return null;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class CachingOn {
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {

        final List<CacheManager> customized = new ArrayList<>();
        volatile boolean wrongTypeCalled;

        @Bean
        CacheManagerCustomizer<MemcachedCacheManager> memcachedCustomizer() {
            return customized::add;
        }

        @Bean
        CacheManagerCustomizer<ConcurrentMapCacheManager> concurrentMapCustomizer() {
            return manager -> wrongTypeCalled = true;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnCacheManager {

        @Bean
        CacheManager ownCacheManager() {
            return new ConcurrentMapCacheManager();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnCacheResolver implements CachingConfigurer {

        @Bean
        @Override
        public CacheResolver cacheResolver() {
            return new SimpleCacheResolver(new ConcurrentMapCacheManager());
        }
    }
}
