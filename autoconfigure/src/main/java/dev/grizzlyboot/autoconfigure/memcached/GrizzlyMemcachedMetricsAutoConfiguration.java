package dev.grizzlyboot.autoconfigure.memcached;

import dev.grizzlyboot.memcached.MemcachedClient;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Publishes the auto-configured {@link MemcachedClient}'s meters ({@code memcached.client.*}) to the
 * application's {@link MeterRegistry}, as Spring Boot does for Lettuce: applies when Micrometer is
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
}
