package dev.grizzlyboot.memcached.internal.connection;

import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.internal.protocol.Operation;

/**
 * What a {@link ConnectionPool} reports about its server's health, so that failure detection can
 * live outside the pool. Called on I/O and sweeper threads: implementations must be quick and
 * must not block. Internal.
 */
public interface PoolEvents {

    /** A connect attempt failed (refused, unreachable, or too slow). */
    void connectFailed(MemcachedException error);

    /** An open connection was closed by the server or the network (reset, end of stream). */
    void connectionLost(MemcachedException error);

    /** One sweep timed out {@code operations} operations waiting on this server. */
    void timedOut(int operations);

    /** The server answered a request: it is alive. */
    void answered();

    /**
     * Whether operations the pool cannot write now (no connection, back-off) should wait in the
     * pool for the server's fate (it answers again, or is marked failed and they are routed
     * elsewhere) rather than fail: only when another server could take them.
     */
    boolean holdUnsent();

    /**
     * Routes elsewhere an operation the pool could not write, if its server is already marked
     * failed and failover applies, or was removed from the server list; the operation was never
     * written, so it runs at most once.
     *
     * @return whether the operation was taken (routed, or failed with the routing error)
     */
    boolean rerouteUnsent(Operation<?> operation);
}
