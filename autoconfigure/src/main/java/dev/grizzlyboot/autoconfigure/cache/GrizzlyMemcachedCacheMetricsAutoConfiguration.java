package dev.grizzlyboot.autoconfigure.cache;

import dev.grizzlyboot.cache.MemcachedCache;
import dev.grizzlyboot.cache.MemcachedCacheManager;
import dev.grizzlyboot.cache.metrics.MemcachedCacheMeterBinderProvider;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.cache.autoconfigure.metrics.CacheMetricsAutoConfiguration;
import org.springframework.boot.cache.metrics.CacheMeterBinderProvider;
import org.springframework.boot.cache.metrics.CacheMetricsRegistrar;
import org.springframework.context.annotation.Bean;

/**
 * Puts every {@link MemcachedCache} into Micrometer as Spring Boot puts its own caches: a
 * {@link MemcachedCacheMeterBinderProvider} for Boot's cache metrics registrar, which binds the
 * caches that exist at start-up, and a binder of the caches a {@link MemcachedCacheManager} creates
 * on demand later, which Boot's registrar never sees. Applies when Micrometer and a
 * {@link MeterRegistry} bean are there. Spring calls it once, at start-up.
 */
@AutoConfiguration(after = GrizzlyMemcachedCacheAutoConfiguration.class, before = CacheMetricsAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass({ MeterRegistry.class, CacheMeterBinderProvider.class, MemcachedCache.class })
@ConditionalOnBean(MeterRegistry.class)
public final class GrizzlyMemcachedCacheMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    MemcachedCacheMeterBinderProvider memcachedCacheMeterBinderProvider() {
        return new MemcachedCacheMeterBinderProvider();
    }

    @Bean
    CreatedCacheMetricsBinder memcachedCreatedCacheMetricsBinder(ListableBeanFactory beanFactory,
            ObjectProvider<CacheMetricsRegistrar> registrar) {
        return new CreatedCacheMetricsBinder(beanFactory, registrar);
    }
}
