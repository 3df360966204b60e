package dev.grizzlyboot.autoconfigure.memcached.health;

import dev.grizzlyboot.autoconfigure.zookeeper.GrizzlyMemcachedZooKeeperAutoConfiguration;
import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;
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
 * Registers the {@code memcachedZookeeper} health contributor
 * ({@link MemcachedZooKeeperHealthIndicator}) for every {@link ZooKeeperServerListSync} bean,
 * unless {@code management.health.memcached-zookeeper.enabled=false} or the application defines
 * {@code memcachedZookeeperHealthIndicator}/{@code memcachedZookeeperHealthContributor}. Spring
 * calls it once, at start-up.
 */
@AutoConfiguration(after = GrizzlyMemcachedZooKeeperAutoConfiguration.class)
@ConditionalOnClass({ ZooKeeperServerListSync.class, HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(ZooKeeperServerListSync.class)
@ConditionalOnEnabledHealthIndicator("memcached-zookeeper")
public final class MemcachedZooKeeperHealthContributorAutoConfiguration
        extends CompositeHealthContributorConfiguration<MemcachedZooKeeperHealthIndicator, ZooKeeperServerListSync> {

    MemcachedZooKeeperHealthContributorAutoConfiguration() {
        super(MemcachedZooKeeperHealthIndicator::new);
    }

    @Bean
    @ConditionalOnMissingBean(name = { "memcachedZookeeperHealthIndicator", "memcachedZookeeperHealthContributor" })
    HealthContributor memcachedZookeeperHealthContributor(ConfigurableListableBeanFactory beanFactory) {
        return createContributor(beanFactory, ZooKeeperServerListSync.class);
    }
}
