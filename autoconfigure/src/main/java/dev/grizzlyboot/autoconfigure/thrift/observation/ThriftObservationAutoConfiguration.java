package dev.grizzlyboot.autoconfigure.thrift.observation;

import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClientCustomizer;
import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClients;
import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClientsProperties;
import dev.grizzlyboot.autoconfigure.thrift.server.ThriftServerCustomizer;
import dev.grizzlyboot.thrift.observation.MicrometerCallObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Records every call of the auto-configured Thrift server and clients as a Micrometer observation
 * when the application has an {@link ObservationRegistry} (Boot's meter handler turns them into
 * {@code thrift.server.requests} and {@code thrift.client.requests} timers; a tracer into spans),
 * and publishes pool gauges per client when it has a {@link MeterRegistry}. Spring calls it once,
 * at start-up.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass({ObservationRegistry.class, MicrometerCallObserver.class})
public final class ThriftObservationAutoConfiguration {

    @Bean
    @ConditionalOnBean(ObservationRegistry.class)
    ThriftServerCustomizer thriftServerObservationCustomizer(ObservationRegistry observationRegistry) {
        return builder -> builder.callObserver(MicrometerCallObserver.server(observationRegistry));
    }

    @Bean
    @ConditionalOnBean(ObservationRegistry.class)
    ThriftClientCustomizer thriftClientObservationCustomizer(ObservationRegistry observationRegistry) {
        return (name, builder) -> builder.callObserver(MicrometerCallObserver.client(observationRegistry));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(ThriftClients.class)
    static class PoolMetricsConfiguration {

        @Bean
        ThriftClientPoolMetrics thriftClientPoolMetrics(ThriftClients thriftClients, ThriftClientsProperties properties) {
            return new ThriftClientPoolMetrics(thriftClients, properties.getClients().keySet());
        }
    }
}
