package dev.grizzlyboot.examples.cachedemo;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Spring Boot's development-time services pattern: a memcached container as a bean, started with the
 * context, whose address reaches the client through the starter's {@code @ServiceConnection}
 * support. Active only when {@link LocalMemcached} chose {@link MemcachedSource#DOCKER_CONTAINER}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = LocalMemcached.SOURCE_PROPERTY, havingValue = "docker-container")
class MemcachedContainerConfiguration {

    @Bean
    @ServiceConnection(name = "memcached")
    GenericContainer<?> memcachedContainer() {
        return new GenericContainer<>(DockerImageName.parse("memcached:1.6-alpine")).withExposedPorts(11211);
    }
}
