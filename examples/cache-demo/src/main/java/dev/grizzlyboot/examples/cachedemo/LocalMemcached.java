package dev.grizzlyboot.examples.cachedemo;

import java.util.Map;

import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import dev.grizzlyboot.testsupport.MemcachedServers;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.testcontainers.DockerClientFactory;

/**
 * Finds the demo a memcached before the application context is built ({@link MemcachedSource}):
 * the configured servers, else two local memcached processes started with the launcher the tests
 * use, else a container ({@link MemcachedContainerConfiguration}). Used once, on the start-up
 * thread; {@link #close()} stops the processes it started.
 */
final class LocalMemcached implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, AutoCloseable {

    static final String SERVERS_PROPERTY = "grizzly.memcached.servers";

    /** Set to {@code docker-container} when the demo runs memcached in a container. */
    static final String SOURCE_PROPERTY = "demo.memcached-source";

    private volatile MemcachedServers servers;

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        ConfigurableEnvironment environment = event.getEnvironment();
        MemcachedSource source = MemcachedSource.choose(environment.containsProperty(SERVERS_PROPERTY),
                MemcachedProcess::installed, () -> DockerClientFactory.instance().isDockerAvailable());
        switch (source) {
            case CONFIGURED -> System.out.println("Using the memcached servers configured: "
                    + environment.getProperty(SERVERS_PROPERTY));
            case LOCAL_PROCESSES -> {
                servers = MemcachedServers.start(2, MemcachedOptions.defaults());
                environment.getPropertySources().addFirst(new MapPropertySource("localMemcached",
                        Map.of(SERVERS_PROPERTY, servers.addressList())));
                System.out.println("Started local memcached processes at " + servers.addressList()
                        + " (set " + SERVERS_PROPERTY + " to use your own)");
            }
            case DOCKER_CONTAINER -> {
                environment.getPropertySources().addFirst(new MapPropertySource("memcachedContainer",
                        Map.of(SOURCE_PROPERTY, "docker-container")));
                System.out.println("No memcached binary found: running memcached in a Docker container");
            }
            case NONE -> {
                System.err.println(MemcachedSource.NONE_MESSAGE);
                System.exit(1);
            }
        }
    }

    @Override
    public void close() {
        MemcachedServers started = servers;
        if (started != null) {
            servers = null;
            started.close();
        }
    }
}
