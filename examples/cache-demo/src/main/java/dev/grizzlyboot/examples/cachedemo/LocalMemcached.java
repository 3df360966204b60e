package dev.grizzlyboot.examples.cachedemo;

import java.util.Map;

import dev.grizzlyboot.testsupport.MemcachedNotInstalledException;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedServers;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * When no {@code grizzly.memcached.servers} is configured, starts two local memcached processes
 * (with the launcher the tests use) before the application context is built, and points the
 * servers property at them. Used once, on the start-up thread; {@link #close()} stops them.
 */
final class LocalMemcached implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, AutoCloseable {

    static final String SERVERS_PROPERTY = "grizzly.memcached.servers";

    private volatile MemcachedServers servers;

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        ConfigurableEnvironment environment = event.getEnvironment();
        if (environment.containsProperty(SERVERS_PROPERTY)) {
            System.out.println("Using the memcached servers configured: " + environment.getProperty(SERVERS_PROPERTY));
            return;
        }
        try {
            servers = MemcachedServers.start(2, MemcachedOptions.defaults());
        } catch (MemcachedNotInstalledException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
        environment.getPropertySources().addFirst(new MapPropertySource("localMemcached",
                Map.of(SERVERS_PROPERTY, servers.addressList())));
        System.out.println("Started local memcached processes at " + servers.addressList()
                + " (set " + SERVERS_PROPERTY + " to use your own)");
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
