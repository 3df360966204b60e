package dev.grizzlyboot.autoconfigure.thrift.health;

import dev.grizzlyboot.thrift.server.ThriftServer;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * UP while the {@link ThriftServer} listens, with its port and open connections; DOWN before it
 * starts and after it stops. Reads only counters, so it is cheap and thread-safe.
 */
public class ThriftServerHealthIndicator extends AbstractHealthIndicator {
    private final ThriftServer server;

    /**
     * Creates an indicator for one server.
     *
     * @param server the server to report on
     */
    public ThriftServerHealthIndicator(ThriftServer server) {
        super("Thrift server health check failed");
        this.server = server;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        if (!server.isRunning()) {
            builder.down().withDetail("listening", false);
            return;
        }
        builder.up()
                .withDetail("listening", true)
                .withDetail("port", server.port())
                .withDetail("openConnections", server.openConnections());
    }
}
