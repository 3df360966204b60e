package dev.grizzlyboot.autoconfigure.cache;

import dev.grizzlyboot.cache.MemcachedCache;
import dev.grizzlyboot.cache.MemcachedCacheManager;
import io.micrometer.core.instrument.Tag;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.cache.metrics.CacheMetricsRegistrar;
import org.springframework.util.StringUtils;

/**
 * Binds the meters of caches that a {@link MemcachedCacheManager} creates after start-up, with the
 * tags Spring Boot gives the caches it binds itself ({@code cache}, {@code cache.manager}). Boot's
 * registrar binds only the caches that exist when it starts; this also binds, once every singleton
 * is ready, those created in between (binding a cache twice is harmless: the meters are the same).
 */
final class CreatedCacheMetricsBinder implements SmartInitializingSingleton {

    private static final String CACHE_MANAGER_SUFFIX = "cacheManager";

    private final ListableBeanFactory beanFactory;
    private final ObjectProvider<CacheMetricsRegistrar> registrar;

    CreatedCacheMetricsBinder(ListableBeanFactory beanFactory, ObjectProvider<CacheMetricsRegistrar> registrar) {
        this.beanFactory = beanFactory;
        this.registrar = registrar;
    }

    @Override
    public void afterSingletonsInstantiated() {
        registrar.ifAvailable(metrics -> beanFactory.getBeansOfType(MemcachedCacheManager.class).forEach((beanName, manager) -> {
            Tag managerTag = Tag.of("cache.manager", managerName(beanName));
            manager.onCacheCreated(cache -> metrics.bindCacheToRegistry(cache, managerTag));
            manager.getCacheNames().forEach(name -> bind(metrics, manager.getCache(name), managerTag));
        }));
    }

    private static void bind(CacheMetricsRegistrar metrics, Object cache, Tag managerTag) {
        if (cache instanceof MemcachedCache memcached) {
            metrics.bindCacheToRegistry(memcached, managerTag);
        }
    }

    /** Boot's name for a cache manager bean: its bean name less a {@code cacheManager} suffix. */
    private static String managerName(String beanName) {
        if (beanName.length() > CACHE_MANAGER_SUFFIX.length()
                && StringUtils.endsWithIgnoreCase(beanName, CACHE_MANAGER_SUFFIX)) {
            return beanName.substring(0, beanName.length() - CACHE_MANAGER_SUFFIX.length());
        }
        return beanName;
    }
}
