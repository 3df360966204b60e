package dev.grizzlyboot.memcached.internal.cluster;

import java.util.List;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerListChange;

/** A {@link ServerListChange} backed by a topology that {@link Cluster#prepare} built but has not applied. */
final class PreparedServerList implements ServerListChange {

    private final Cluster cluster;
    private final Topology prepared;

    PreparedServerList(Cluster cluster, Topology prepared) {
        this.cluster = cluster;
        this.prepared = prepared;
    }

    @Override
    public List<ServerAddress> servers() {
        return prepared.nodes().stream().map(Node::address).toList();
    }

    @Override
    public ServerAddress ownerOf(String key) {
        return prepared.owner(cluster.keyBytes(key)).address();
    }

    @Override
    public void apply() {
        cluster.apply(prepared);
    }

    @Override
    public void discard() {
        cluster.discard(prepared);
    }
}
