package dev.grizzlyboot.autoconfigure.thrift.server;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.grizzlyboot.thrift.server.ThriftServer;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;

/**
 * Starts the auto-configured server once the context is refreshed, publishes its port as
 * {@value #PORT_PROPERTY}, and on shutdown stops it gracefully: it stops accepting, lets running
 * calls reply and closes connections, cutting off what still runs after the shutdown-phase
 * timeout. Runs in the phase of Boot's web-server graceful shutdown. A server starts once, so a
 * stopped context cannot be started again. Called by Spring's lifecycle processor.
 */
final class ThriftServerLifecycle implements SmartLifecycle {
    /** The environment property that holds the port the server listens on, like {@code local.server.port}. */
    static final String PORT_PROPERTY = "local.grizzly.thrift.port";

    private static final String PROPERTY_SOURCE = "grizzly.thrift.ports";

    private final ThriftServer server;
    private final ConfigurableEnvironment environment;
    private final Duration shutdownTimeout;
    private volatile boolean running;

    ThriftServerLifecycle(ThriftServer server, ConfigurableEnvironment environment, Duration shutdownTimeout) {
        this.server = server;
        this.environment = environment;
        this.shutdownTimeout = shutdownTimeout;
    }

    @Override
    public void start() {
        server.start();
        publishPort(server.port());
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        server.stop(shutdownTimeout);
    }

    /** Drains on a thread of its own, so other beans of this phase stop in parallel. */
    @Override
    public void stop(Runnable callback) {
        running = false;
        Thread drain = new Thread(() -> {
            try {
                server.stop(shutdownTimeout);
            } finally {
                callback.run();
            }
        }, "grizzlyboot-thrift-shutdown");
        drain.start();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1024;
    }

    @SuppressWarnings("unchecked")
    private void publishPort(int port) {
        PropertySource<?> existing = environment.getPropertySources().get(PROPERTY_SOURCE);
        if (existing instanceof MapPropertySource ports) {
            ((Map<String, Object>) ports.getSource()).put(PORT_PROPERTY, port);
            return;
        }
        Map<String, Object> ports = new HashMap<>();
        ports.put(PORT_PROPERTY, port);
        environment.getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE, ports));
    }
}
