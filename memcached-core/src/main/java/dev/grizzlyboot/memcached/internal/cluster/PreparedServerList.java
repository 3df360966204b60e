package dev.grizzlyboot.memcached.internal.cluster;

import java.util.List;
import java.util.function.Function;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerListChange;

/** A {@link ServerListChange} backed by a topology that {@link Cluster#prepare} built but has not applied. */
final class PreparedServerList implements ServerListChange {

    private final Cluster cluster;
    private final Topology prepared;
    private final Function<String, byte[]> keyBytes;

    PreparedServerList(Cluster cluster, Topology prepared, Function<String, byte[]> keyBytes) {
        this.cluster = cluster;
        this.prepared = prepared;
        this.keyBytes = keyBytes;
    }

    @Override
    public List<ServerAddress> servers() {
        return prepared.nodes().stream().map(Node::address).toList();
    }

    @Override
    public ServerAddress ownerOf(String key) {
        return prepared.owner(keyBytes.apply(key)).address();
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
