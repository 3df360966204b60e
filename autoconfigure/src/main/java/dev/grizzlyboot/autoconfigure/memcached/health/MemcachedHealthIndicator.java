package dev.grizzlyboot.autoconfigure.memcached.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.ServerResult;
import dev.grizzlyboot.memcached.ServerResults;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerDetails;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of a {@link MemcachedClient}'s servers: each server's state (active, failed since when,
 * or removed from the configured list) and a VERSION round trip to every server. UP when every
 * server answers; UP with {@code degraded: true} when only some do, because a partial cache
 * outage only sends those keys' {@code @Cacheable} calls to the method and must not take the
 * application down; DOWN when none answers. Thread-safe; each check waits at most the client's
 * operation timeout.
 */
public class MemcachedHealthIndicator extends AbstractHealthIndicator {

    private final MemcachedClient client;
    private final List<ServerAddress> configured;

    /**
     * @param client     the client to check
     * @param configured the servers the application was configured with; those no longer in the
     *                   client's list (after a server-list change) are reported as removed
     */
    public MemcachedHealthIndicator(MemcachedClient client, List<ServerAddress> configured) {
        super("memcached health check failed");
        this.client = client;
        this.configured = List.copyOf(configured);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        ServerResults<String> versions = client.versionEach().join();
        Map<String, Object> servers = new LinkedHashMap<>();
        for (ServerDetails details : client.serverDetails()) {
            Map<String, Object> server = new LinkedHashMap<>();
            server.put("state", details.state().status());
            server.put("since", details.state().since());
            server.put("weight", details.weight());
            ServerResult<String> version = versions.get(details.server());
            if (version != null && version.succeeded()) {
                server.put("version", version.value());
            } else if (version != null) {
                server.put("error", version.error().getMessage());
            }
            servers.put(details.server().toString(), server);
        }
        for (ServerAddress server : configured) {
            servers.putIfAbsent(server.toString(), Map.of("state", "REMOVED"));
        }
        int answered = versions.values().size();
        if (answered == 0) {
            builder.down();
        } else {
            builder.up();
        }
        builder.withDetail("servers", servers)
                .withDetail("answered", answered + "/" + versions.size())
                .withDetail("degraded", answered < versions.size());
    }
}
