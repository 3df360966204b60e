package dev.grizzlyboot.memcached.internal.cluster;

import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.memcached.cluster.ServerAddress;

/**
 * The servers a client routes to at one moment, with two rings: every server, and the servers not
 * marked failed. Replaced whole, never changed, so a caller that read it routes by one consistent
 * view. Immutable.
 */
final class Topology {

    private final List<Node> nodes;
    private final KetamaRing<Node> all;
    private final KetamaRing<Node> live;
    private final ClusterSettings settings;
    private final boolean failover;
    private final int copies;

    private Topology(List<Node> nodes, ClusterSettings settings, KetamaRing<Node> allOrNull) {
        this.nodes = List.copyOf(nodes);
        this.settings = settings;
        this.failover = settings.failover();
        this.copies = settings.replicas() + 1;
        this.all = allOrNull != null ? allOrNull : ring(this.nodes);
        List<Node> active = new ArrayList<>();
        for (Node node : this.nodes) {
            if (!node.failed()) {
                active.add(node);
            }
        }
        this.live = active.size() == this.nodes.size() ? all : active.isEmpty() ? null : ring(active);
    }

    static Topology of(List<Node> nodes, ClusterSettings settings) {
        return new Topology(nodes, settings, null);
    }

    /** The same servers (and ring of all of them), with the live ring recomputed after a status change. */
    Topology withCurrentHealth() {
        return new Topology(nodes, settings, all);
    }

    List<Node> nodes() {
        return nodes;
    }

    Node node(ServerAddress address) {
        for (Node node : nodes) {
            if (node.address().equals(address)) {
                return node;
            }
        }
        return null;
    }

    /** The server to read a key from: its owner, or (owner failed) the first live replica or next live server. */
    Node readTarget(byte[] key) {
        if (failover) {
            if (live == null) {
                throw nodes.get(0).unavailableAll();
            }
            return live.locate(key);
        }
        if (copies == 1) {
            Node owner = all.locate(key);
            if (owner.failed()) {
                throw owner.unavailable();
            }
            return owner;
        }
        List<Node> candidates = all.locate(key, copies);
        for (Node candidate : candidates) {
            if (!candidate.failed()) {
                return candidate;
            }
        }
        throw candidates.get(0).unavailable();
    }

    /** The servers a write of a key goes to, its owner first; never empty. */
    List<Node> writeTargets(byte[] key) {
        if (failover) {
            if (live == null) {
                throw nodes.get(0).unavailableAll();
            }
            return live.locate(key, copies);
        }
        List<Node> candidates = all.locate(key, copies);
        List<Node> targets = new ArrayList<>(candidates.size());
        for (Node candidate : candidates) {
            if (!candidate.failed()) {
                targets.add(candidate);
            }
        }
        if (targets.isEmpty()) {
            throw candidates.get(0).unavailable();
        }
        return targets;
    }

    /** The owner of a key when every server is up: where the key lives by the configured list alone. */
    Node owner(byte[] key) {
        return all.locate(key);
    }

    private KetamaRing<Node> ring(List<Node> nodes) {
        return KetamaRing.of(settings.naming(), nodes.stream().map(Node::address).toList(), nodes,
                nodes.stream().map(Node::weight).toList());
    }
}
