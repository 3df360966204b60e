package dev.grizzlyboot.memcached.internal.connection;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.AuthenticationException;
import dev.grizzlyboot.memcached.MemcachedConnectionException;
import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.internal.protocol.Operation;
import dev.grizzlyboot.memcached.internal.protocol.TextBulkRead;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections to one server. A single request (a get, store, delete or counter) goes to the
 * oldest connection while that has fewer than {@code pipelineDepth} pending, and to the open
 * connection with the fewest pending beyond that; a bulk batch of writes always goes to the oldest
 * connection, and a bulk batch of reads to the one with the fewest pending. memcached serves each
 * connection on one of its worker threads: its item writes take global locks, so writes from two
 * of its threads at once slow each other down, and requests spread thin over two connections cost
 * it more per request (fewer per wake-up), while a bulk read is long enough to be worth a second
 * thread. When even the least-loaded connection has {@code pipelineDepth} pending and
 * the pool is below its maximum, another connection is opened. A lost connection is replaced on demand; while
 * connects fail, the pool backs off (doubling up to a cap) and fails operations at once instead
 * of letting each wait for a timeout. Connect failures, connections lost, timeouts and answers
 * are reported to {@link PoolEvents} for failure detection. A {@linkplain #retire() retired} pool takes no new
 * connections and closes once nothing is pending.
 *
 * <p>An operation that was never written (the pool has no connection, or its connection closed
 * before writing it) is never executed, so it may be delivered elsewhere: to another connection,
 * or, when {@link PoolEvents#holdUnsent()} says so, held until the server answers again or is marked
 * failed ({@link #takeUnsent()} hands the held ones to the cluster to route by the new ring). A
 * retired pool's unwritten operations go where their keys go by the new list
 * ({@link PoolEvents#rerouteUnsent}), not to another of its connections.
 *
 * <p>A pool made with text bulk reads has a companion pool of text-protocol connections to the
 * same server ({@link #textBulkReads()}), with the same settings and events, for bulk reads only:
 * it opens its connections on the first one and is maintained, retired and closed with this pool.
 * Each text connection first checks that the server speaks the text protocol
 * ({@link TextProtocolCheck}); a server that closes it without a byte instead (memcached {@code -B binary})
 * leaves the companion {@linkplain #refusedText refused}: bulk reads then go over the binary
 * protocol to this pool, those already sent to the companion included, and none of it counts
 * as a failure of the server. While the companion merely backs off after a failed connect and this
 * pool has a connection open, bulk reads go over binary too, for the time being.
 *
 * <p>Thread-safe: {@link #send} is lock-free; opening and removing connections take a lock.
 * Internal.
 */
public final class ConnectionPool {

    private static final Logger log = LoggerFactory.getLogger(ConnectionPool.class);

    private final String server;
    private final String host;
    private final int port;
    private final ClientTransport transport;
    private final PoolSettings settings;
    private final PoolEvents events;
    private final Object lock = new Object();
    private volatile MemcachedConnection[] connections = new MemcachedConnection[0];
    private final Queue<Operation<?>> held = new ConcurrentLinkedQueue<>();
    private volatile long retryAfterNanos;
    private volatile MemcachedException lastConnectError;
    private long backoffNanos;
    /** Connections lost in a row before they answered anything. */
    private volatile int hangUps;
    private volatile boolean closed;
    private volatile boolean retired;
    /** The text-protocol companion bulk reads go to, or {@code null} when they stay binary. */
    private final ConnectionPool textReads;
    /**
     * Set in a text pool only (whose connections speak the text protocol, for bulk reads): its
     * binary pool, which takes those reads once the server refuses text; {@code null} in a binary pool.
     */
    private final ConnectionPool binary;
    /** A text pool whose server closed a connection at its {@link TextProtocolCheck}: it opens none. */
    private volatile boolean refusesText;
    /** A text pool keeps its minimum of connections only once a bulk read has used it. */
    private volatile boolean used;

    /** A pool of binary-protocol connections only. */
    public ConnectionPool(String host, int port, ClientTransport transport, PoolSettings settings, PoolEvents events) {
        this(host, port, transport, settings, events, false);
    }

    /**
     * @param textBulkReads whether bulk reads go to a companion pool of text-protocol connections
     *                      to the same server, with the same settings and events, opened on first use
     */
    public ConnectionPool(String host, int port, ClientTransport transport, PoolSettings settings, PoolEvents events,
            boolean textBulkReads) {
        this.server = host + ":" + port;
        this.host = host;
        this.port = port;
        this.transport = transport;
        this.settings = settings;
        this.events = events;
        this.binary = null;
        this.textReads = textBulkReads ? new ConnectionPool(this) : null;
    }

    /** The text companion of {@code binary}. */
    private ConnectionPool(ConnectionPool binary) {
        this.server = binary.server;
        this.host = binary.host;
        this.port = binary.port;
        this.transport = binary.transport;
        this.settings = binary.settings;
        this.events = binary.events;
        this.binary = binary;
        this.textReads = null;
    }

    private boolean isText() {
        return binary != null;
    }

    /** {@code host:port} of the server. */
    public String server() {
        return server;
    }

    /**
     * The pool of text-protocol connections to the same server that bulk reads go to, or
     * {@code null} if they go to this one: the client reads over binary, or the server refused the
     * text protocol. The two pools are maintained, retired and closed together.
     */
    public ConnectionPool textBulkReads() {
        ConnectionPool companion = textReads;
        return companion == null || companion.refusesText ? null : companion;
    }

    /**
     * Sends an operation on the least-loaded connection. Without one, it is held, or routed
     * elsewhere by {@link PoolEvents#rerouteUnsent} (this server is marked failed, or was removed
     * from the list), or failed.
     */
    public void send(Operation<?> operation) {
        if (isText()) {
            if (!used) {
                used = true;
            }
            if (refusesText) {
                sendOverBinary(operation);
                return;
            }
        }
        MemcachedConnection connection = choose(operation);
        if (connection != null) {
            connection.send(operation);
            return;
        }
        if (readsOverBinaryMeanwhile()) {
            sendOverBinary(operation);
            return;
        }
        operation.assignServer(server);
        if (!hold(operation) && !events.rerouteUnsent(operation)) {
            operation.fail(unavailable());
        }
    }

    /**
     * The operations held for this server, removed from the pool and its text companion: it was
     * marked failed, and the caller routes them by the new ring (or fails them).
     */
    public List<Operation<?>> takeUnsent() {
        List<Operation<?>> taken = textReads == null ? new ArrayList<>() : textReads.takeUnsent();
        taken.addAll(takeHeld());
        return taken;
    }

    /** This pool's own held operations that are still waiting, removed from it. */
    private List<Operation<?>> takeHeld() {
        List<Operation<?>> taken = new ArrayList<>();
        Operation<?> operation;
        while ((operation = held.poll()) != null) {
            if (!operation.isDone()) {
                taken.add(operation);
            }
        }
        return taken;
    }

    /** An operation a connection closed before writing it: another connection takes it, or it is held, or it fails. */
    void unsent(Operation<?> operation, MemcachedException error) {
        if (operation.isDone()) {
            return;
        }
        if (closed) {
            operation.fail(error);
            return;
        }
        if (refusesText) {
            sendOverBinary(operation);
            return;
        }
        // Marked failed or removed: straight to where its keys go now, no new connection to that server.
        if (events.rerouteUnsent(operation)) {
            return;
        }
        MemcachedConnection connection = choose(operation);
        if (connection != null) {
            connection.send(operation);
        } else if (readsOverBinaryMeanwhile()) {
            sendOverBinary(operation);
        } else if (!hold(operation) && !events.rerouteUnsent(operation)) {
            operation.fail(error);
        }
    }

    /**
     * Whether this is a text pool that cannot have a connection now (it backs off after a failed
     * connect) while its binary pool has one open: the server takes binary connections but refuses
     * text ones for the moment, as memcached at its connection limit ({@code -c}) refuses any new
     * one. Its bulk reads then go over binary rather than fail, or wait past their deadline.
     */
    private boolean readsOverBinaryMeanwhile() {
        if (!isText() || closed || retired) {
            return false;
        }
        for (MemcachedConnection connection : binary.connections) {
            if (connection.isOpen()) {
                return true;
            }
        }
        return false;
    }

    /**
     * A connection opened: what this pool held goes out on it (or another; or is held again if that
     * one closed meanwhile). Only this pool's: a text bulk read waits for a text connection.
     */
    void connected() {
        takeHeld().forEach(this::send);
    }

    /**
     * A text connection was closed by the server, without a byte, before it answered its {@link TextProtocolCheck}:
     * the server does not speak the text protocol. Not a failure of the server, so no back-off and
     * no event; from now on this pool opens no connection and hands every bulk read, those it
     * holds and those the closing connection had queued, to the binary pool.
     */
    void refusedText(MemcachedConnection connection) {
        boolean first;
        // Under the lock: two text connections opened together are refused together, on two I/O threads.
        synchronized (lock) {
            first = !refusesText;
            refusesText = true;
            remove(connection);
        }
        if (first) {
            // Once per verdict, not per connection: an operator may want to know that the faster text bulk reads are off.
            log.info("memcached server {} closed a text-protocol connection at its first command (started with -B binary?):"
                    + " bulk reads go over the binary protocol", server);
        }
        takeHeld().forEach(this::sendOverBinary);
    }

    /** A text bulk read (the only kind a text pool carries) of a server that refuses text, sent as binary requests. */
    private void sendOverBinary(Operation<?> operation) {
        binary.send(((TextBulkRead<?>) operation).overBinary(System.nanoTime()));
    }

    private boolean hold(Operation<?> operation) {
        // A retired pool opens no connection that would send what it held.
        if (closed || retired || !events.holdUnsent()) {
            return false;
        }
        held.add(operation);
        // Marked failed (or closed) meanwhile, after the held queue was handed over: do not strand it.
        if ((closed || !events.holdUnsent()) && held.remove(operation)) {
            return false;
        }
        // Text refused meanwhile, after the held ones went to the binary pool: this one follows them.
        if (refusesText && held.remove(operation)) {
            sendOverBinary(operation);
        }
        return true;
    }

    /** Number of connections open or being opened, text ones for bulk reads included. */
    public int size() {
        return connections.length + (textReads == null ? 0 : textReads.size());
    }

    /** Number of open connections, text ones for bulk reads included. */
    public int openConnections() {
        int open = textReads == null ? 0 : textReads.openConnections();
        for (MemcachedConnection connection : connections) {
            if (connection.isOpen()) {
                open++;
            }
        }
        return open;
    }

    /** Operations queued or in flight on all connections, text ones for bulk reads included. */
    public int pending() {
        int pending = textReads == null ? 0 : textReads.pending();
        for (MemcachedConnection connection : connections) {
            pending += connection.pending();
        }
        return pending;
    }

    /** Whether the pool was {@linkplain #retire() retired}: its server left the list. */
    public boolean isRetired() {
        return retired;
    }

    /** Whether the pool has been closed (directly, or by a retirement that completed). */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Stops the pool from opening connections; operations already sent finish normally. Whoever
     * retires it closes it once {@link #pending()} is zero.
     */
    public void retire() {
        retired = true;
        if (textReads != null) {
            textReads.retire();
        }
    }

    /**
     * Forgets the reconnect back-off, so the next operation tries to connect at once, and whether
     * the server refused the text protocol: it may have been restarted with other options.
     */
    public void resetBackoff() {
        synchronized (lock) {
            backoffNanos = 0;
            retryAfterNanos = 0;
            hangUps = 0;
        }
        refusesText = false;
        if (textReads != null) {
            textReads.resetBackoff();
        }
    }

    /**
     * Times out expired operations, closes idle surplus connections and keeps the minimum open
     * (unless retired). Called by the client's sweeper.
     */
    public void maintain(long nowNanos) {
        if (textReads != null) {
            textReads.maintain(nowNanos);
        }
        MemcachedConnection[] current = connections;
        long idleLimit = settings.idleTimeout().toNanos();
        int minimum = isText() && !used ? 0 : settings.minConnections();
        int surplus = current.length - minimum;
        int timedOut = 0;
        for (MemcachedConnection connection : current) {
            timedOut += connection.sweep(nowNanos, settings.connectTimeout().toNanos());
            if (surplus > 0 && connection.isOpen() && connection.closeIfIdle(nowNanos, idleLimit)) {
                surplus--;
                remove(connection);
            }
            connection.drainIfStalled(nowNanos);
        }
        if (timedOut > 0) {
            events.timedOut(timedOut);
        }
        // Held operations never reached the server: their timeouts say nothing about its health.
        held.removeIf(operation -> operation.isDone() || (operation.expiredAt(nowNanos) && operation.timeOut()));
        if (retired) {
            // Held before the removal for a connection a retired pool will not open.
            for (Operation<?> operation : takeHeld()) {
                if (!events.rerouteUnsent(operation)) {
                    operation.fail(unavailable());
                }
            }
            return;
        }
        int missing = minimum - connections.length;
        for (int i = 0; i < missing; i++) {
            if (open() == null) {
                break;
            }
        }
    }

    /** Closes every connection, failing what they carry. */
    public void close() {
        close(new MemcachedConnectionException(retired ? server + " was removed from the client" : "client closed"));
    }

    private void close(MemcachedConnectionException reason) {
        MemcachedConnection[] current;
        synchronized (lock) {
            closed = true;
            current = connections;
            connections = new MemcachedConnection[0];
        }
        for (MemcachedConnection connection : current) {
            connection.close(reason);
        }
        Operation<?> operation;
        while ((operation = held.poll()) != null) {
            operation.fail(reason);
        }
        if (textReads != null) {
            textReads.close(reason);
        }
    }

    void answered() {
        // Only an answer ends the back-off: a server that accepts and hangs up at once must stay backed off.
        if (retryAfterNanos != 0 || hangUps != 0) {
            resetBackoff();
            lastConnectError = null;
        }
        events.answered();
    }

    /**
     * @param whileConnecting the connect attempt failed
     * @param serverFault     an open connection was closed by the server or the network, or broke the protocol
     */
    void closed(MemcachedConnection connection, boolean whileConnecting, boolean serverFault, MemcachedException error) {
        boolean hungUp = serverFault && !connection.answeredAny();
        synchronized (lock) {
            remove(connection);
            // One connection lost before it answered may be bad luck (a restart); two in a row look
            // like a server that accepts and drops every connection: back off as from one that refuses.
            if (whileConnecting || (hungUp && ++hangUps > 1)) {
                long first = settings.reconnectBackoff().toNanos();
                backoffNanos = backoffNanos == 0 ? first : Math.min(backoffNanos * 2, settings.maxReconnectBackoff().toNanos());
                retryAfterNanos = System.nanoTime() + backoffNanos;
                lastConnectError = error;
            }
        }
        if (!closed && !retired) {
            if (whileConnecting) {
                events.connectFailed(error);
            } else if (serverFault) {
                events.connectionLost(error);
            }
        }
    }

    private MemcachedConnection choose(Operation<?> operation) {
        MemcachedConnection[] current = connections;
        boolean batch = operation.isBatch();
        if (operation.changesItems() || !batch) {
            // A bulk batch's item writes keep memcached busy far longer than its one network event,
            // so it stays on the oldest connection at any depth; a single request spills past the
            // depth. Bulk reads spread: they lost up to 0.69x kept on one connection (docs/benchmarks.md).
            for (MemcachedConnection connection : current) {
                if (connection.isUsable()) {
                    if (batch || connection.pending() < settings.pipelineDepth()) {
                        return connection;
                    }
                    break;
                }
            }
        }
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
            if (closed || retired || refusesText || connections.length >= settings.maxConnections()
                    || (retryAfterNanos != 0 && System.nanoTime() - retryAfterNanos < 0)) {
                return null;
            }
            connection = new MemcachedConnection(server, this, transport, isText());
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

    private MemcachedException unavailable() {
        MemcachedException cause = lastConnectError;
        long waitMillis = Math.max(0, TimeUnit.NANOSECONDS.toMillis(retryAfterNanos - System.nanoTime()));
        if (retired) {
            return new MemcachedConnectionException(server + " was removed from the client");
        }
        if (closed) {
            return new MemcachedConnectionException("client closed");
        }
        if (cause instanceof AuthenticationException refused) {
            // Callers learn that the login is wrong, not merely that the server is unreachable.
            return new AuthenticationException(refused.status(), refused.getMessage() + "; next attempt in " + waitMillis + " ms");
        }
        return new MemcachedConnectionException(server + " is unreachable"
                + (cause != null ? " (" + cause.getMessage() + ")" : "") + "; next connect attempt in " + waitMillis + " ms", cause);
    }
}
