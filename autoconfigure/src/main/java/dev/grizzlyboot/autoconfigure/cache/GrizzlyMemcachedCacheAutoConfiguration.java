package dev.grizzlyboot.autoconfigure.cache;

import java.util.LinkedHashSet;
import java.util.List;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedProperties;
import dev.grizzlyboot.cache.MemcachedCacheConfiguration;
import dev.grizzlyboot.cache.MemcachedCacheManager;
import dev.grizzlyboot.memcached.MemcachedClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.CacheManagerCustomizer;
import org.springframework.boot.cache.autoconfigure.CacheManagerCustomizers;
import org.springframework.boot.cache.autoconfigure.CacheProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cache.CacheManager;
import org.springframework.cache.interceptor.CacheAspectSupport;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Creates a {@link MemcachedCacheManager} on the {@link MemcachedClient} when caching is enabled
 * ({@code @EnableCaching}) and the application has no {@link CacheManager} of its own.
 *
 * <p>Spring Boot's {@code spring.cache.type} has no value for memcached, so this runs before Boot's
 * {@link CacheAutoConfiguration}: with {@code spring.cache.type} unset it provides the cache manager
 * (and Boot's then backs off); with {@code spring.cache.type} set to anything ({@code none},
 * {@code simple}, {@code caffeine}, ...) it backs off and Boot provides the chosen one.
 * {@code spring.cache.cache-names} fixes the set of caches; {@link CacheManagerCustomizer} beans
 * are applied as Boot applies them. A {@link MemcachedCacheConfiguration} bean of the application
 * replaces the {@code grizzly.memcached.cache.*} defaults (as a {@code RedisCacheConfiguration} bean
 * does for Redis); the per-cache settings under {@code caches} still apply over it. Spring calls it
 * once, at start-up; the manager it builds is thread-safe.
 */
@AutoConfiguration(before = CacheAutoConfiguration.class, after = GrizzlyMemcachedAutoConfiguration.class)
@ConditionalOnClass({ CacheManager.class, CacheManagerCustomizers.class, MemcachedCacheManager.class })
@ConditionalOnBean({ CacheAspectSupport.class, MemcachedClient.class })
@ConditionalOnMissingBean(value = CacheManager.class, name = "cacheResolver")
@Conditional(NoCacheTypeCondition.class)
@EnableConfigurationProperties({ CacheProperties.class, GrizzlyMemcachedProperties.class })
public final class GrizzlyMemcachedCacheAutoConfiguration {

    @Bean
    MemcachedCacheManager cacheManager(MemcachedClient client, GrizzlyMemcachedProperties properties,
            CacheProperties cacheProperties, ObjectProvider<MemcachedCacheConfiguration> cacheConfiguration,
            ObjectProvider<MemcachedCacheManagerBuilderCustomizer> builderCustomizers,
            ObjectProvider<CacheManagerCustomizer<?>> cacheManagerCustomizers) {
        GrizzlyMemcachedProperties.Cache cache = properties.getCache();
        MemcachedCacheConfiguration defaults = cacheConfiguration.getIfAvailable(() -> CacheSettings.defaults(cache));
        MemcachedCacheManager.Builder builder = MemcachedCacheManager.builder(client)
                .cacheDefaults(defaults)
                .propagateErrors(cache.isPropagateErrors())
                .generationRefreshInterval(cache.getGenerationRefreshInterval());
        cache.getCaches().forEach((name, spec) -> builder.withCacheConfiguration(name, CacheSettings.of(spec, defaults)));
        List<String> cacheNames = cacheProperties.getCacheNames();
        if (!cacheNames.isEmpty()) {
            builder.initialCacheNames(new LinkedHashSet<>(cacheNames)).disableCreateOnMissingCache();
        }
        builderCustomizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        CacheManagerCustomizers customizers = new CacheManagerCustomizers(cacheManagerCustomizers.orderedStream().toList());
        return customizers.customize(builder.build());
    }
}
