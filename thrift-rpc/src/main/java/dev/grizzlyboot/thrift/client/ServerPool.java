package dev.grizzlyboot.thrift.client;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.apache.thrift.transport.TTransportException;

/**
 * The connections to one server: at most {@code maxConnections} exist, idle ones are reused
 * most-recently-used first, and a failed connect takes the server out of rotation until
 * {@link #maintain()} connects again. Thread-safe.
 */
final class ServerPool {
    private static final System.Logger LOG = System.getLogger(ServerPool.class.getName());

    final String name;
    private final InetSocketAddress address;
    private final ConnectionFactory factory;
    private final ClientSettings settings;
    private final Semaphore permits;
    private final ConcurrentLinkedDeque<PooledConnection> idle = new ConcurrentLinkedDeque<>();
    private volatile boolean healthy = true;
    private volatile boolean closed;

    ServerPool(InetSocketAddress address, ConnectionFactory factory, ClientSettings settings) {
        this.address = address;
        this.name = address.getHostString() + ":" + address.getPort();
        this.factory = factory;
        this.settings = settings;
        this.permits = new Semaphore(settings.maxConnections);
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
        while ((connection = idle.pollFirst()) != null) {
            if (connection.isOpen()) {
                return connection;
            }
        }
        try {
            return factory.open(address);
        } catch (IOException | TTransportException e) {
            permits.release();
            markDown(e);
            throw new ThriftTransportFailureException(name, method, e.getMessage(), e);
        }
    }

    /** Returns a borrowed connection; one that may be out of step with the server is closed instead. */
    void giveBack(PooledConnection connection, boolean reusable) {
        if (reusable && !closed && connection.isOpen()) {
            idle.offerFirst(connection);
        } else {
            connection.close();
        }
        permits.release();
    }

    /** Brings a failed server back once it accepts a connection, and keeps the minimum of idle connections. */
    void maintain() {
        int open = settings.maxConnections - permits.availablePermits() + idle.size();
        int wanted = healthy ? settings.minConnections - open : 1;
        for (int i = 0; i < wanted && !closed; i++) {
            try {
                idle.offerFirst(factory.open(address));
            } catch (IOException | TTransportException e) {
                markDown(e);
                return;
            }
        }
        if (!healthy && !closed) {
            healthy = true;
            LOG.log(Level.INFO, "Thrift server {0} is back in rotation", name);
        }
    }

    void close() {
        closed = true;
        closeIdle();
    }

    private void markDown(Exception cause) {
        if (healthy) {
            healthy = false;
            LOG.log(Level.WARNING, "Thrift server {0} left rotation: {1}", name, cause.getMessage());
        }
        closeIdle();
    }

    private void closeIdle() {
        PooledConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            connection.close();
        }
    }
}
