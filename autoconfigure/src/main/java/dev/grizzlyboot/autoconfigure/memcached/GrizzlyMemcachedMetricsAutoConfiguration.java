package dev.grizzlyboot.autoconfigure.memcached;

import dev.grizzlyboot.autoconfigure.zookeeper.ZooKeeperServerListSyncBuilderCustomizer;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Publishes the auto-configured {@link MemcachedClient}'s meters ({@code memcached.client.*}), and
 * the ZooKeeper sync's ({@code memcached.zookeeper.*}), to the application's {@link MeterRegistry}, as Spring Boot does for Lettuce: applies when Micrometer is
 * on the class path and a registry bean exists (Boot's actuator makes one). Spring calls it once,
 * at start-up.
 */
@AutoConfiguration(before = GrizzlyMemcachedAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, MemcachedClient.class })
@ConditionalOnBean(MeterRegistry.class)
public final class GrizzlyMemcachedMetricsAutoConfiguration {

    @Bean
    MemcachedClientBuilderCustomizer memcachedMeterRegistryCustomizer(MeterRegistry registry) {
        return builder -> builder.meterRegistry(registry);
    }

    /** The ZooKeeper sync's meters ({@code memcached.zookeeper.*}), when the sync module is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ZooKeeperServerListSync.class)
    static class ZooKeeperSyncMeters {

        @Bean
        ZooKeeperServerListSyncBuilderCustomizer memcachedZooKeeperMeterRegistryCustomizer(MeterRegistry registry) {
            return builder -> builder.meterRegistry(registry);
        }
    }
}
