package dev.grizzlyboot.autoconfigure.memcached.health;

import java.util.List;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.autoconfigure.memcached.MemcachedConnectionDetails;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.CompositeHealthContributorConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Registers the {@code memcached} health contributor ({@link MemcachedHealthIndicator}) for every
 * {@link MemcachedClient} bean, unless {@code management.health.memcached.enabled=false} or the
 * application defines {@code memcachedHealthIndicator}/{@code memcachedHealthContributor}. Spring
 * calls it once, at start-up.
 */
@AutoConfiguration(after = GrizzlyMemcachedAutoConfiguration.class)
@ConditionalOnClass({ MemcachedClient.class, HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(MemcachedClient.class)
@ConditionalOnEnabledHealthIndicator("memcached")
public final class MemcachedHealthContributorAutoConfiguration
        extends CompositeHealthContributorConfiguration<MemcachedHealthIndicator, MemcachedClient> {

    MemcachedHealthContributorAutoConfiguration(ObjectProvider<MemcachedConnectionDetails> connectionDetails) {
        super(client -> new MemcachedHealthIndicator(client, configured(connectionDetails)));
    }

    @Bean
    @ConditionalOnMissingBean(name = { "memcachedHealthIndicator", "memcachedHealthContributor" })
    HealthContributor memcachedHealthContributor(ConfigurableListableBeanFactory beanFactory) {
        return createContributor(beanFactory, MemcachedClient.class);
    }

    private static List<ServerAddress> configured(ObjectProvider<MemcachedConnectionDetails> connectionDetails) {
        MemcachedConnectionDetails details = connectionDetails.getIfUnique();
        return details == null ? List.of() : details.getServers();
    }
}
