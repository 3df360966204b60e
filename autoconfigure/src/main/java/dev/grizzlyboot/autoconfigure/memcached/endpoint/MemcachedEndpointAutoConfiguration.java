package dev.grizzlyboot.autoconfigure.memcached.endpoint;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.autoconfigure.zookeeper.GrizzlyMemcachedZooKeeperAutoConfiguration;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registers the {@code memcached} actuator endpoint ({@link MemcachedEndpoint}) and its HTTP
 * extension when the endpoint is available (enabled and exposed), with the ZooKeeper-coordinated
 * list when the application has one. Spring calls it once, at start-up.
 */
@AutoConfiguration(after = { GrizzlyMemcachedAutoConfiguration.class, GrizzlyMemcachedZooKeeperAutoConfiguration.class })
@ConditionalOnClass({ MemcachedClient.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(MemcachedClient.class)
@ConditionalOnAvailableEndpoint(MemcachedEndpoint.class)
public final class MemcachedEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    MemcachedEndpoint memcachedEndpoint(MemcachedClient client, ObjectProvider<CoordinatedServerList> serverList) {
        return new MemcachedEndpoint(client, serverList.getIfUnique());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(MemcachedEndpoint.class)
    @ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
    MemcachedEndpointWebExtension memcachedEndpointWebExtension(MemcachedEndpoint endpoint) {
        return new MemcachedEndpointWebExtension(endpoint);
    }

    /** The ZooKeeper-coordinated list, only when the ZooKeeper module is on the class path and a sync runs. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ZooKeeperServerListSync.class)
    @ConditionalOnBean(ZooKeeperServerListSync.class)
    static class ZooKeeperServerListConfiguration {

        @Bean
        @ConditionalOnMissingBean
        CoordinatedServerList memcachedCoordinatedServerList(ZooKeeperServerListSync sync) {
            return new ZooKeeperCoordinatedServerList(sync);
        }
    }
}
