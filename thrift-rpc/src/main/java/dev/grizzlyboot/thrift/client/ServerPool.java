package dev.grizzlyboot.thrift.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections to one server: at most {@code maxConnections} exist, idle ones are reused
 * most-recently-used first and closed once idle for the idle timeout. A failed connect, or
 * {@code failAfterTimeouts} read timeouts in a row with no reply in between, takes the server out
 * of rotation until {@link #maintain()} finds its process answering again. Thread-safe.
 */
final class ServerPool {
    private static final Logger log = LoggerFactory.getLogger(ServerPool.class);

    final String name;
    private final InetSocketAddress address;
    private final ConnectionFactory factory;
    private final ClientSettings settings;
    private final Semaphore permits;
    private final long idleTimeoutNanos;
    private final IdleConnections idle = new IdleConnections();
    private final AtomicInteger timeoutsInARow = new AtomicInteger();
    private volatile boolean healthy = true;
    private volatile boolean closed;

    ServerPool(InetSocketAddress address, ConnectionFactory factory, ClientSettings settings) {
        this.address = address;
        String host = address.getHostString();
        // An IPv6 literal in brackets, as written in a server list, so that the port stands apart.
        this.name = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
        this.factory = factory;
        this.settings = settings;
        this.permits = new Semaphore(settings.maxConnections);
        this.idleTimeoutNanos = settings.idleTimeout.toNanos();
    }

    boolean healthy() {
        return healthy;
    }

    /** Takes an open connection, opening one if none is idle; waits at most the connect timeout for a free slot. */
    PooledConnection borrow(String method) throws ThriftTransportFailureException {
        if (closed) {
            throw new ThriftTransportFailureException(name, method, "the client is closed", null);
        }
        try {
            if (!permits.tryAcquire(settings.connectTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new ThriftTransportFailureException(name, method,
                        "all " + settings.maxConnections + " connections stayed busy", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ThriftTransportFailureException(name, method, "interrupted while waiting for a connection", e);
        }
        PooledConnection connection;
        while ((connection = idle.takeNewest()) != null) {
            if (usable(connection)) {
                return connection;
            }
            connection.close();
        }
        try {
            return factory.open(address);
        } catch (IOException | TTransportException e) {
            permits.release();
            markDown(e.getMessage());
            throw new ThriftTransportFailureException(name, method, e.getMessage(), e);
        }
    }

    /** Returns a borrowed connection; one that may be out of step with the server is closed instead. */
    void giveBack(PooledConnection connection, boolean reusable) {
        if (reusable && !closed && connection.isOpen()) {
            connection.markIdle();
            idle.putNewest(connection);
        } else {
            connection.close();
        }
        permits.release();
    }

    /** Connections lent to calls right now. */
    int busy() {
        return settings.maxConnections - permits.availablePermits();
    }

    /** Open connections waiting in the pool. */
    int idle() {
        return idle.size();
    }

    /** Called when a reply arrived: the server is answering, so earlier timeouts no longer count. */
    void replied() {
        // Read before writing: the common case (no timeouts) stays a plain read on the call path.
        if (timeoutsInARow.get() != 0) {
            timeoutsInARow.set(0);
        }
    }

    /** Called when a call got no reply in time; enough of them in a row take the server out of rotation. */
    void timedOut(TTransportException cause) {
        if (timeoutsInARow.incrementAndGet() >= settings.failAfterTimeouts) {
            markDown(settings.failAfterTimeouts + " read timeout(s) in a row, the last: " + cause.getMessage());
        }
    }

    /**
     * Closes connections idle for the idle timeout or closed by the server, brings a failed server
     * back once its process answers a {@link LivenessProbe} within the connect timeout, and keeps
     * the minimum of idle connections.
     */
    void maintain() {
        closeUnusableIdle();
        if (!healthy && !closed) {
            if (!probe()) {
                return;
            }
            timeoutsInARow.set(0);
            healthy = true;
            log.info("Thrift server {} is back in rotation", name);
        }
        int open = busy() + idle();
        for (int i = open; i < settings.minConnections && !closed; i++) {
            try {
                idle.putNewest(factory.open(address));
            } catch (IOException | TTransportException e) {
                markDown(e.getMessage());
                return;
            }
        }
    }

    private boolean probe() {
        PooledConnection connection;
        try {
            connection = factory.open(address);
        } catch (IOException | TTransportException e) {
            return false;
        }
        try {
            return LivenessProbe.answers(connection, settings.connectTimeout);
        } finally {
            connection.close();
        }
    }

    void close() {
        closed = true;
        closeIdle();
    }

    private void markDown(String reason) {
        if (healthy) {
            healthy = false;
            log.warn("Thrift server {} left rotation: {}", name, reason);
        }
        closeIdle();
    }

    /**
     * Closes idle connections that expired or that the server closed. Callers read only during
     * their own calls, so reading here notices a server's close, or a frame no call asked for, now
     * rather than at the next use. Each connection is checked where it lies in the pool: a caller
     * arriving meanwhile waits for that check rather than finding the pool empty and opening a
     * connection it does not need, and one a caller took first is left with it.
     */
    private void closeUnusableIdle() {
        for (PooledConnection connection : idle.snapshot()) {
            if (idle.removeIfUnusable(connection, c -> !closed && usable(c))) {
                connection.close();
            }
        }
    }

    /** Not idle for the idle timeout, and able to carry a call after reading what came while idle. */
    private boolean usable(PooledConnection connection) {
        return !connection.idleLongerThan(idleTimeoutNanos) && connection.readyForCall();
    }

    private void closeIdle() {
        PooledConnection connection;
        while ((connection = idle.takeNewest()) != null) {
            connection.close();
        }
    }
}
