package dev.grizzlyboot.autoconfigure.memcached.health;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.grizzlyboot.memcached.zookeeper.ClusterView;
import dev.grizzlyboot.memcached.zookeeper.SyncState;
import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the ZooKeeper server-list sync: connection, session, whether this member is
 * registered, the list versions in use and committed, and a change in progress (its version,
 * acknowledgements out of live members, deadline and decision). UP while connected and
 * registered; DOWN otherwise, because a member that is away can miss a change and route keys
 * differently from the others. Thread-safe.
 */
public class MemcachedZooKeeperHealthIndicator extends AbstractHealthIndicator {

    private final ZooKeeperServerListSync sync;

    public MemcachedZooKeeperHealthIndicator(ZooKeeperServerListSync sync) {
        super("memcached ZooKeeper health check failed");
        this.sync = sync;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        SyncState state = sync.state();
        builder.withDetail("memberId", state.memberId())
                .withDetail("connected", state.connected())
                .withDetail("phase", state.phase())
                .withDetail("version", state.version())
                .withDetail("committedVersion", state.committedVersion());
        if (state.commitAtMillis() != 0) {
            builder.withDetail("commitAt", Instant.ofEpochMilli(state.commitAtMillis()));
        }
        if (state.lastError() != null) {
            builder.withDetail("lastError", state.lastError().toString());
        }
        if (!state.connected()) {
            builder.down();
            return;
        }
        ClusterView cluster = sync.readCluster();
        builder.withDetail("sessionId", "0x" + Long.toHexString(cluster.sessionId()))
                .withDetail("registered", cluster.registered())
                .withDetail("members", cluster.members().size());
        if (cluster.barrier() != null) {
            ClusterView.Barrier barrier = cluster.barrier();
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("version", barrier.version());
            details.put("acks", barrier.acks().size() + "/" + cluster.members().size());
            details.put("prepareBy", Instant.ofEpochMilli(barrier.prepareByMillis()));
            details.put("decision", barrier.decision());
            builder.withDetail("barrier", details);
        }
        if (cluster.registered()) {
            builder.up();
        } else {
            builder.down();
        }
    }
}
