package dev.grizzlyboot.memcached.cluster;

import java.util.List;

/**
 * A server list prepared but not in use: its ring is built and connections to its new servers are
 * opening. {@link #apply()} makes it the client's list in one atomic step; {@link #discard()}
 * drops it. This is the two-step hook that coordinated changes (all clients switch at one agreed
 * moment) are built on. Thread-safe; apply or discard once.
 */
public final class ServerListChange {

    private final Cluster cluster;
    private final Topology prepared;

    ServerListChange(Cluster cluster, Topology prepared) {
        this.cluster = cluster;
        this.prepared = prepared;
    }

    /** The servers of the new list, in list order. */
    public List<ServerAddress> servers() {
        return prepared.nodes().stream().map(Node::address).toList();
    }

    /** The server that will own a key once this list is applied (every server assumed up). */
    public ServerAddress ownerOf(String key) {
        return prepared.owner(key).address();
    }

    /** Makes this the client's server list; removed servers close once their pending requests finish. */
    public void apply() {
        cluster.apply(prepared);
    }

    /** Drops the change, closing the connections it opened. */
    public void discard() {
        cluster.discard(prepared);
    }
}
