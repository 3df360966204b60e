package dev.grizzlyboot.memcached.zookeeper;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;

/**
 * Reads a {@link ClusterView} from ZooKeeper: read-only, a handful of calls, never part of the
 * protocol (so a slow health check cannot delay a switch). Thread-safe.
 */
final class ClusterInspector {

    private final CuratorFramework curator;
    private final Znodes znodes;
    private final String memberId;

    ClusterInspector(CuratorFramework curator, SyncSettings settings) {
        this.curator = curator;
        this.znodes = new Znodes(curator, settings.rootPath(), settings.clusterName(), null);
        this.memberId = settings.memberId();
    }

    ClusterView read() throws Exception {
        long session = curator.getZookeeperClient().getZooKeeper().getSessionId();
        Stat member = znodes.member(memberId);
        ServerList committed = znodes.committed(null);
        ServerList latest = znodes.latest(null);
        long committedVersion = committed == null ? 0 : committed.version();
        ClusterView.Barrier barrier = null;
        if (latest != null && latest.version() > committedVersion) {
            Decision decision = znodes.decision(latest.version());
            barrier = new ClusterView.Barrier(latest.version(), latest.servers(),
                    znodes.childrenOrNone(znodes.acksPath(latest.version())),
                    latest.prepareByMillis(), decision == null ? "pending" : decision.commit() ? "commit" : "abort",
                    decision == null ? 0 : decision.commitAtMillis());
        }
        return new ClusterView(session, member != null && member.getEphemeralOwner() == session,
                znodes.childrenOrNone(znodes.membersPath()), committedVersion,
                committed == null ? List.of() : committed.servers(), committed == null ? 0 : committed.commitAtMillis(),
                barrier);
    }
}
