package dev.grizzlyboot.autoconfigure.thrift.health;

import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClientAutoConfiguration;
import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClients;
import dev.grizzlyboot.autoconfigure.thrift.server.ThriftServerAutoConfiguration;
import dev.grizzlyboot.thrift.server.ThriftServer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Adds the {@code thriftServer} health contributor when there is a {@link ThriftServer} bean and
 * {@code thriftClients} when there are clients from {@code grizzly.thrift.clients}; both are
 * switched by {@code management.health.thrift.enabled}. A bean of the contributor's name replaces
 * it. Spring calls it once, at start-up.
 */
@AutoConfiguration(after = {ThriftServerAutoConfiguration.class, ThriftClientAutoConfiguration.class})
@ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
@ConditionalOnEnabledHealthIndicator("thrift")
public final class ThriftHealthContributorAutoConfiguration {

    @Bean
    @ConditionalOnBean(ThriftServer.class)
    @ConditionalOnMissingBean(name = {"thriftServerHealthIndicator", "thriftServerHealthContributor"})
    ThriftServerHealthIndicator thriftServerHealthIndicator(ThriftServer thriftServer) {
        return new ThriftServerHealthIndicator(thriftServer);
    }

    @Bean
    @ConditionalOnBean(ThriftClients.class)
    @ConditionalOnMissingBean(name = {"thriftClientsHealthIndicator", "thriftClientsHealthContributor"})
    ThriftClientsHealthIndicator thriftClientsHealthIndicator(ThriftClients thriftClients) {
        return new ThriftClientsHealthIndicator(thriftClients);
    }
}
