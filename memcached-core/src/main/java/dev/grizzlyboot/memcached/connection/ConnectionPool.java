package dev.grizzlyboot.memcached.connection;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.MemcachedConnectionException;
import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.protocol.Operation;

/**
 * The connections to one server. An operation goes to the open connection with the fewest
 * pending operations; when even that one has {@code pipelineDepth} pending and the pool is below
 * its maximum, another connection is opened. A lost connection is replaced on demand; while
 * connects fail, the pool backs off (doubling up to a cap) and fails operations at once instead
 * of letting each wait for a timeout.
 *
 * <p>Thread-safe: {@link #send} is lock-free; opening and removing connections take a lock.
 * Internal.
 */
public final class ConnectionPool {

    private final String server;
    private final String host;
    private final int port;
    private final ClientTransport transport;
    private final PoolSettings settings;
    private final Object lock = new Object();
    private volatile MemcachedConnection[] connections = new MemcachedConnection[0];
    private volatile long retryAfterNanos;
    private volatile MemcachedException lastConnectError;
    private long backoffNanos;
    private volatile boolean closed;

    public ConnectionPool(String host, int port, ClientTransport transport, PoolSettings settings) {
        this.server = host + ":" + port;
        this.host = host;
        this.port = port;
        this.transport = transport;
        this.settings = settings;
    }

    /** {@code host:port} of the server. */
    public String server() {
        return server;
    }

    /** Sends an operation on the least-loaded connection, or fails it if the server is unreachable. */
    public void send(Operation<?> operation) {
        MemcachedConnection connection = choose();
        if (connection == null) {
            operation.assignServer(server);
            operation.fail(unavailable());
        } else {
            connection.send(operation);
        }
    }

    /** Number of connections open or being opened. */
    public int size() {
        return connections.length;
    }

    /** Number of open connections. */
    public int openConnections() {
        int open = 0;
        for (MemcachedConnection connection : connections) {
            if (connection.isOpen()) {
                open++;
            }
        }
        return open;
    }

    /** Times out expired operations, closes idle surplus connections and keeps the minimum open. */
    void maintain(long nowNanos) {
        MemcachedConnection[] current = connections;
        long idleLimit = settings.idleTimeout().toNanos();
        int surplus = current.length - settings.minConnections();
        for (MemcachedConnection connection : current) {
            connection.sweep(nowNanos, settings.connectTimeout().toNanos());
            if (surplus > 0 && connection.isOpen() && connection.idleNanos(nowNanos) > idleLimit) {
                surplus--;
                remove(connection);
                connection.close(new MemcachedConnectionException("idle connection to " + server + " closed"));
            }
            connection.drainIfStalled(nowNanos);
        }
        int missing = settings.minConnections() - connections.length;
        for (int i = 0; i < missing; i++) {
            if (open() == null) {
                break;
            }
        }
    }

    /** Closes every connection, failing what they carry. */
    public void close() {
        MemcachedConnection[] current;
        synchronized (lock) {
            closed = true;
            current = connections;
            connections = new MemcachedConnection[0];
        }
        for (MemcachedConnection connection : current) {
            connection.close(new MemcachedConnectionException("client closed"));
        }
    }

    void connected(MemcachedConnection connection) {
        synchronized (lock) {
            backoffNanos = 0;
            retryAfterNanos = 0;
            lastConnectError = null;
        }
    }

    void closed(MemcachedConnection connection, boolean whileConnecting, MemcachedException error) {
        synchronized (lock) {
            remove(connection);
            if (whileConnecting) {
                long first = settings.reconnectBackoff().toNanos();
                backoffNanos = backoffNanos == 0 ? first : Math.min(backoffNanos * 2, settings.maxReconnectBackoff().toNanos());
                retryAfterNanos = System.nanoTime() + backoffNanos;
                lastConnectError = error;
            }
        }
    }

    private MemcachedConnection choose() {
        MemcachedConnection[] current = connections;
        MemcachedConnection best = null;
        int bestPending = Integer.MAX_VALUE;
        for (MemcachedConnection connection : current) {
            int pending = connection.pending();
            if (pending < bestPending && connection.isUsable()) {
                best = connection;
                bestPending = pending;
            }
        }
        if (best == null || (bestPending >= settings.pipelineDepth() && current.length < settings.maxConnections())) {
            MemcachedConnection opened = open();
            return best == null ? opened : best;
        }
        return best;
    }

    private MemcachedConnection open() {
        MemcachedConnection connection;
        synchronized (lock) {
            if (closed || connections.length >= settings.maxConnections()
                    || (retryAfterNanos != 0 && System.nanoTime() - retryAfterNanos < 0)) {
                return null;
            }
            connection = new MemcachedConnection(server, this, transport);
            MemcachedConnection[] grown = Arrays.copyOf(connections, connections.length + 1);
            grown[grown.length - 1] = connection;
            connections = grown;
        }
        connection.connect(new InetSocketAddress(host, port));
        return connection;
    }

    private void remove(MemcachedConnection connection) {
        synchronized (lock) {
            MemcachedConnection[] current = connections;
            for (int i = 0; i < current.length; i++) {
                if (current[i] == connection) {
                    MemcachedConnection[] shrunk = new MemcachedConnection[current.length - 1];
                    System.arraycopy(current, 0, shrunk, 0, i);
                    System.arraycopy(current, i + 1, shrunk, i, current.length - i - 1);
                    connections = shrunk;
                    return;
                }
            }
        }
    }

    private MemcachedConnectionException unavailable() {
        MemcachedException cause = lastConnectError;
        long waitMillis = Math.max(0, TimeUnit.NANOSECONDS.toMillis(retryAfterNanos - System.nanoTime()));
        if (closed) {
            return new MemcachedConnectionException("client closed");
        }
        return new MemcachedConnectionException(server + " is unreachable"
                + (cause != null ? " (" + cause.getMessage() + ")" : "") + "; next connect attempt in " + waitMillis + " ms", cause);
    }
}
