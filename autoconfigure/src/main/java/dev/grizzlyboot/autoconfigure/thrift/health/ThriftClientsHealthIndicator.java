package dev.grizzlyboot.autoconfigure.thrift.health;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClients;
import dev.grizzlyboot.thrift.client.ThriftClient;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports, per client of {@code grizzly.thrift.clients}, the servers in and out of rotation. DOWN
 * only when some client has no server in rotation (its calls can only fail or wait for a
 * recovery); one failed server of several is a detail, not an outage. Makes no calls of its own:
 * rotation is kept current by each client's monitor. Thread-safe.
 */
public class ThriftClientsHealthIndicator extends AbstractHealthIndicator {
    private final ThriftClients clients;

    /**
     * Creates an indicator for the auto-configured clients.
     *
     * @param clients the clients, by name
     */
    public ThriftClientsHealthIndicator(ThriftClients clients) {
        super("Thrift clients health check failed");
        this.clients = clients;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean everyClientHasAServer = true;
        for (Map.Entry<String, ThriftClient> entry : clients.clients().entrySet()) {
            ThriftClient client = entry.getValue();
            List<String> inRotation = client.serversInRotation();
            List<String> outOfRotation = new ArrayList<>(client.servers());
            outOfRotation.removeAll(inRotation);
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("inRotation", inRotation);
            detail.put("outOfRotation", outOfRotation);
            builder.withDetail(entry.getKey(), detail);
            everyClientHasAServer &= !inRotation.isEmpty();
        }
        if (everyClientHasAServer) {
            builder.up();
        } else {
            builder.down();
        }
    }
}
