package dev.grizzlyboot.autoconfigure.memcached.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.autoconfigure.memcached.MemcachedConnectionDetails;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * {@code @ServiceConnection} on a real memcached container, end to end. Needs a Docker engine; where
 * there is none (as on the project's build machines) it is skipped, saying so. Our other tests use
 * local memcached processes instead.
 */
@EnabledIf(value = "dockerAvailable", disabledReason = "skipped: no Docker engine here, so no memcached container can start")
@SpringJUnitConfig(MemcachedServiceConnectionTests.Config.class)
class MemcachedServiceConnectionTests {

    @ServiceConnection(name = "memcached")
    static final GenericContainer<?> memcached = new GenericContainer<>("memcached:1.6-alpine").withExposedPorts(11211);

    @Autowired
    MemcachedConnectionDetails connectionDetails;

    @Autowired
    MemcachedClient client;

    /** Evaluated before Spring's extension reads the {@code @ServiceConnection} field (which needs Docker). */
    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    @BeforeAll
    static void startContainer() {
        memcached.start();
    }

    @AfterAll
    static void stopContainer() {
        memcached.stop();
    }

    @Test
    void clientTalksToTheContainer() {
        assertThat(connectionDetails.getServers())
                .containsExactly(new ServerAddress(memcached.getHost(), memcached.getMappedPort(11211)));
        client.blocking().set("service-connection", "works", Duration.ofMinutes(1));
        assertThat(client.blocking().get("service-connection")).isEqualTo("works");
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(GrizzlyMemcachedAutoConfiguration.class)
    static class Config {
    }
}
