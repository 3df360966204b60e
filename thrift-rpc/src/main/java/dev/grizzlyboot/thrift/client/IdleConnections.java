package dev.grizzlyboot.thrift.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The idle connections of one {@link ServerPool}, most recently given back first. Every call takes
 * one out and puts it back, so this is a plain deque under this object's lock: a few field updates
 * per operation, where a lock-free deque allocates a node per insertion and retries at its contended
 * head. Thread-safe; nothing blocks while the lock is held (the check in {@link #removeIfUnusable}
 * reads without waiting).
 */
final class IdleConnections {
    private final ArrayDeque<PooledConnection> connections = new ArrayDeque<>();

    /** Takes the most recently given back connection, or returns null if none is idle. */
    synchronized PooledConnection takeNewest() {
        return connections.pollFirst();
    }

    /** Adds a connection as the most recently used one. */
    synchronized void putNewest(PooledConnection connection) {
        connections.offerFirst(connection);
    }

    /**
     * Checks a connection where it lies, if it is still idle, and takes it out if the check fails.
     * A caller cannot take it meanwhile, so a check never leaves a caller without the idle
     * connection it would have had, and the pool's order stays as it was.
     *
     * @return true if the connection was idle and failed the check: the caller closes it
     */
    synchronized boolean removeIfUnusable(PooledConnection connection, Predicate<PooledConnection> usable) {
        return connections.contains(connection) && !usable.test(connection)
                && connections.removeFirstOccurrence(connection);
    }

    synchronized int size() {
        return connections.size();
    }

    /** The idle connections right now, most recently used first, for a pass over all of them. */
    synchronized List<PooledConnection> snapshot() {
        return new ArrayList<>(connections);
    }
}
