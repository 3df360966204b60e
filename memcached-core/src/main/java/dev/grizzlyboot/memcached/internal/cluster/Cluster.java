package dev.grizzlyboot.memcached.internal.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerDetails;
import dev.grizzlyboot.memcached.cluster.ServerListChange;
import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.memcached.cluster.ServerStateListener;
import dev.grizzlyboot.memcached.internal.connection.ConnectionPool;
import dev.grizzlyboot.memcached.internal.connection.PoolEvents;
import dev.grizzlyboot.memcached.internal.protocol.KeyedOperation;
import dev.grizzlyboot.memcached.internal.protocol.Operation;
import dev.grizzlyboot.memcached.internal.protocol.TextBulkRead;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers of one client and where each key goes: a {@link Topology} that is replaced whole
 * (on a server list change, or when a server is marked failed or comes back), so routing never
 * takes a lock and never sees half a change. Owns the servers' connection pools, retires removed
 * ones once their pending requests finish, and probes failed servers for failback.
 *
 * <p>Thread-safe: routing reads a volatile snapshot; changes serialize on one lock. Internal:
 * public only for the client's other packages; users reach it through {@code MemcachedClient}.
 */
public final class Cluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Cluster.class);

    private final ClusterSettings settings;
    private final PoolFactory pools;
    private final Map<ServerAddress, Integer> weights;
    private final Function<String, byte[]> keyBytes;
    private final long retireGraceNanos;
    private final Object lock = new Object();
    private final Set<Node> retiring = ConcurrentHashMap.newKeySet();
    private final Set<Node> preparing = ConcurrentHashMap.newKeySet();
    private final List<ServerStateListener> listeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> serverListListeners = new CopyOnWriteArrayList<>();
    private volatile Topology topology;
    private volatile boolean closed;
    /** Set by each sweep before it maintains the pools; read by their nodes on the sweeper thread. */
    private boolean clientStalled;

    /**
     * Connects to {@code servers} (each with the weight in {@code weights}, default 1; the weights
     * also apply when a server joins later).
     *
     * @param keyBytes    a key's bytes on the ring, for the lookups that take a key as a string;
     *                    throws for a key no call would take, so a lookup never answers for another key
     * @param retireGrace how long a removed server's pending requests may take before its
     *                    connections close anyway; they close no sooner than half of it
     */
    public Cluster(List<ServerAddress> servers, Map<ServerAddress, Integer> weights, ClusterSettings settings,
            PoolFactory pools, Function<String, byte[]> keyBytes, java.time.Duration retireGrace) {
        this.settings = settings;
        this.pools = pools;
        this.keyBytes = keyBytes;
        this.retireGraceNanos = retireGrace.toNanos();
        this.weights = new ConcurrentHashMap<>(weights);
        List<Node> nodes = new ArrayList<>();
        for (ServerAddress server : distinct(servers)) {
            nodes.add(newNode(server));
        }
        this.topology = Topology.of(nodes, settings);
    }

    /** The pool to read a key from, given as its UTF-8 bytes. */
    public ConnectionPool readTarget(byte[] key) {
        return topology.readTarget(key).pool();
    }

    /** The pools a write of a key (its UTF-8 bytes) goes to, the key's owner first. */
    public List<ConnectionPool> writeTargets(byte[] key) {
        List<Node> nodes = topology.writeTargets(key);
        List<ConnectionPool> targets = new ArrayList<>(nodes.size());
        for (Node node : nodes) {
            targets.add(node.pool());
        }
        return targets;
    }

    /** Whether writes go to more than one server. */
    public boolean replicated() {
        return settings.replicas() > 0;
    }

    /** Every server's pool, in list order. */
    public Map<ServerAddress, ConnectionPool> pools() {
        Map<ServerAddress, ConnectionPool> result = new LinkedHashMap<>();
        for (Node node : topology.nodes()) {
            result.put(node.address(), node.pool());
        }
        return result;
    }

    /** How many servers the current list has (failed ones included). */
    public int serverCount() {
        return topology.nodes().size();
    }

    /** The servers, in list order. */
    public List<ServerAddress> servers() {
        return topology.nodes().stream().map(Node::address).toList();
    }

    /** The server a key is read from now (its owner, or where failover sends it). */
    public ServerAddress serverFor(String key) {
        return topology.readTarget(keyBytes(key)).address();
    }

    /** A key's bytes on the ring; throws for a key no call would take. */
    byte[] keyBytes(String key) {
        return keyBytes.apply(key);
    }

    /** The server that owns a key by the server list alone, ignoring failures. */
    public ServerAddress ownerOf(String key) {
        return topology.owner(keyBytes(key)).address();
    }

    /**
     * Each server's health, in list order. Taken under the lock that status changes hold, so a
     * server reported failed is already out of the routing (and one reported back is in it).
     */
    public List<ServerState> states() {
        synchronized (lock) {
            return topology.nodes().stream().map(Node::state).toList();
        }
    }

    /** Each server's health, weight and pool figures, in list order (health taken as {@link #states()} takes it). */
    public List<ServerDetails> details() {
        synchronized (lock) {
            return topology.nodes().stream().map(node -> new ServerDetails(node.state(), node.weight(),
                    node.pool().openConnections(), node.pool().pending())).toList();
        }
    }

    /** Registers a listener for servers marked failed or back. */
    public void addListener(ServerStateListener listener) {
        listeners.add(listener);
    }

    /** Registers a listener run (under the change's lock, so it must be quick) after every change of the server list. */
    public void addServerListListener(Runnable listener) {
        serverListListeners.add(listener);
    }

    /** Removes a listener. */
    public void removeListener(ServerStateListener listener) {
        listeners.remove(listener);
    }

    /**
     * Opens connections to the servers of a new list that are not in use yet and returns the
     * change, ready to {@linkplain ServerListChange#apply() apply} in one step.
     *
     * @throws IllegalArgumentException if the list is empty
     */
    public ServerListChange prepare(Collection<ServerAddress> servers) {
        List<ServerAddress> list = distinct(servers);
        if (list.isEmpty()) {
            throw new IllegalArgumentException("a memcached client needs at least one server");
        }
        synchronized (lock) {
            requireOpen();
            Topology current = topology;
            List<Node> nodes = new ArrayList<>();
            for (ServerAddress server : list) {
                Node existing = current.node(server);
                if (existing == null) {
                    existing = newNode(server);
                    preparing.add(existing);
                }
                nodes.add(existing);
            }
            return new PreparedServerList(this, Topology.of(nodes, settings));
        }
    }

    /** Replaces the server list at once: prepare and apply. */
    public void setServers(Collection<ServerAddress> servers) {
        prepare(servers).apply();
    }

    /** Adds a server with a weight; no change if it is already there. */
    public void addServer(ServerAddress server, int weight) {
        synchronized (lock) {
            requireOpen();
            Topology current = topology;
            if (current.node(server) != null) {
                return;
            }
            weights.put(server, weight);
            List<Node> nodes = new ArrayList<>(current.nodes());
            nodes.add(newNode(server));
            publish(Topology.of(nodes, settings), current);
        }
    }

    /**
     * Removes a server; its connections close once their pending requests finish.
     *
     * @throws IllegalArgumentException if it is the last server
     */
    public void removeServer(ServerAddress server) {
        synchronized (lock) {
            Topology current = topology;
            List<Node> nodes = new ArrayList<>(current.nodes());
            nodes.removeIf(node -> node.address().equals(server));
            if (nodes.size() == current.nodes().size()) {
                return;
            }
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("cannot remove " + server + ": it is the last server");
            }
            publish(Topology.of(nodes, settings), current);
        }
    }

    /**
     * Runs on the sweeper thread: times out requests, maintains pools, probes failed servers, closes
     * drained ones. While {@code clientStalled}, timeouts do not count against their servers.
     */
    public void maintain(long nowNanos, boolean clientStalled) {
        this.clientStalled = clientStalled;
        for (Node node : topology.nodes()) {
            node.pool().maintain(nowNanos);
            node.probeIfDue(nowNanos);
        }
        for (Node node : preparing) {
            node.pool().maintain(nowNanos);
        }
        retiring.removeIf(node -> node.drained(nowNanos, retireGraceNanos / 2, retireGraceNanos));
    }

    /** Whether the current sweep follows a stall of the client itself. Sweeper thread only. */
    boolean clientStalled() {
        return clientStalled;
    }

    @Override
    public void close() {
        List<Node> nodes = new ArrayList<>();
        synchronized (lock) {
            closed = true;
            nodes.addAll(topology.nodes());
            nodes.addAll(preparing);
            nodes.addAll(retiring);
            preparing.clear();
            retiring.clear();
        }
        nodes.forEach(node -> node.pool().close());
    }

    /**
     * Applies a prepared change: the nodes it opened join, the servers it lacks retire. The ring
     * prepare built is used as it is unless another change added one of its servers meanwhile:
     * members of a coordinated change all switch at one moment, and rebuilding every ring then
     * would make the switch late by as long as the slowest rebuild.
     */
    void apply(Topology prepared) {
        synchronized (lock) {
            requireOpen();
            Topology current = topology;
            List<Node> nodes = new ArrayList<>();
            boolean asPrepared = true;
            for (Node node : prepared.nodes()) {
                Node existing = current.node(node.address());
                nodes.add(existing != null ? existing : node);
                preparing.remove(node);
                if (existing != null && existing != node) {
                    node.pool().close();
                    asPrepared = false;
                }
            }
            publish(asPrepared ? prepared.withCurrentHealth() : Topology.of(nodes, settings), current);
        }
    }

    /** Drops a prepared change: closes the connections it opened that no applied list uses. */
    void discard(Topology prepared) {
        synchronized (lock) {
            for (Node node : prepared.nodes()) {
                if (preparing.remove(node)) {
                    node.pool().close();
                }
            }
        }
    }

    void markFailed(Node node, Exception error) {
        if (changeStatus(node, ServerState.Status.FAILED)) {
            log.warn("memcached server {} marked failed{}: {}", node.address(),
                    settings.failover() ? " and taken out of the ring" : "", error.getMessage());
            rerouteUnsent(node);
        }
    }

    /** Whether a server other than {@code node} is live in the current ring. */
    boolean hasOtherLiveServer(Node node) {
        for (Node other : topology.nodes()) {
            if (other != node && !other.failed()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Routes the operations a failed server's pool held (never written, so never executed) by the
     * ring without it, as if they had been sent after the failure.
     */
    private void rerouteUnsent(Node node) {
        for (Operation<?> operation : node.pool().takeUnsent()) {
            if (!reroute(node, operation)) {
                operation.fail(node.unavailable());
            }
        }
    }

    /**
     * Sends a never-written operation of a failed or removed server to where its key goes now; a
     * bulk batch is split by where its keys go now.
     *
     * @return {@code false} if it is bound to that server (no key) or a key of it still routes there
     */
    boolean reroute(Node from, Operation<?> operation) {
        if (operation instanceof KeyedOperation<?> batch) {
            return rerouteBatch(from, batch);
        }
        String key = operation.routingKey();
        if (key == null) {
            return false;
        }
        try {
            ConnectionPool target = readTarget(key.getBytes(StandardCharsets.UTF_8));
            if (target == from.pool()) {
                return false;
            }
            target.send(operation);
        } catch (MemcachedException e) {
            operation.fail(e);
        }
        return true;
    }

    /**
     * Sends each server's part of a never-written batch there (a text read to its text pool, or as
     * binary requests if that server refuses the text protocol); the
     * batch completes, with every key's result in place, once its parts have.
     */
    private <T> boolean rerouteBatch(Node from, KeyedOperation<T> batch) {
        List<String> keys = batch.keys();
        boolean text = batch instanceof TextBulkRead;
        Map<ConnectionPool, List<Integer>> positions = new IdentityHashMap<>();
        try {
            for (int i = 0; i < keys.size(); i++) {
                ConnectionPool target = readTarget(keys.get(i).getBytes(StandardCharsets.UTF_8));
                if (target == from.pool()) {
                    return false;
                }
                positions.computeIfAbsent(target, pool -> new ArrayList<>()).add(i);
            }
        } catch (MemcachedException e) {
            batch.fail(e);
            return true;
        }
        long now = System.nanoTime();
        List<KeyedOperation<T>> parts = new ArrayList<>(positions.size());
        List<int[]> partPositions = new ArrayList<>(positions.size());
        for (Map.Entry<ConnectionPool, List<Integer>> target : positions.entrySet()) {
            int[] part = target.getValue().stream().mapToInt(Integer::intValue).toArray();
            KeyedOperation<T> operation = batch.part(part, now);
            partPositions.add(part);
            parts.add(operation);
            ConnectionPool textReads = text ? target.getKey().textBulkReads() : null;
            if (textReads != null) {
                textReads.send(operation);
            } else if (text) {
                // A server that refuses the text protocol reads the part as binary requests.
                target.getKey().send(((TextBulkRead<T>) operation).overBinary(now));
            } else {
                target.getKey().send(operation);
            }
        }
        batch.completeFrom(parts, partPositions);
        return true;
    }

    void markActive(Node node, boolean flushed) {
        if (changeStatus(node, ServerState.Status.ACTIVE)) {
            log.info("memcached server {} answers again{} and is back in the ring", node.address(),
                    flushed ? ", was flushed (its data predates the outage)" : "");
        }
    }

    private boolean changeStatus(Node node, ServerState.Status status) {
        ServerState changed;
        synchronized (lock) {
            Topology current = topology;
            if (closed || current.node(node.address()) != node || node.state().status() == status) {
                return false;
            }
            node.changeStatus(status, System.nanoTime());
            topology = current.withCurrentHealth();
            changed = node.state();
        }
        for (ServerStateListener listener : listeners) {
            try {
                listener.stateChanged(changed);
            } catch (RuntimeException e) {
                log.warn("server state listener {} failed", listener, e);
            }
        }
        return true;
    }

    private void publish(Topology next, Topology previous) {
        topology = next;
        serverListListeners.forEach(Runnable::run);
        long now = System.nanoTime();
        for (Node node : previous.nodes()) {
            if (next.node(node.address()) != node) {
                node.retire(now);
                retiring.add(node);
            }
        }
    }

    private Node newNode(ServerAddress server) {
        return new Node(server, weights.getOrDefault(server, 1), this, settings, pools);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the memcached client is closed");
        }
    }

    private static List<ServerAddress> distinct(Collection<ServerAddress> servers) {
        return List.copyOf(new LinkedHashSet<>(servers));
    }

    /** Makes the connection pool for a server, reporting to the given events. */
    @FunctionalInterface
    public interface PoolFactory {

        /** A new pool for {@code server} whose health events go to {@code events}. */
        ConnectionPool create(ServerAddress server, PoolEvents events);
    }
}
