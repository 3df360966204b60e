package dev.grizzlyboot.memcached.internal.connection;

import dev.grizzlyboot.memcached.MemcachedException;

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
}
