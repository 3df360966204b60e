package dev.grizzlyboot.memcached.cluster;

/**
 * Told when a server is marked failed or comes back. Called on the client's own threads (the I/O
 * or maintenance thread that noticed the change): implementations must be quick and must not
 * block or call the client synchronously.
 */
@FunctionalInterface
public interface ServerStateListener {

    /**
     * A server changed status; {@code current} is its new state.
     *
     * @param current the server's state after the change
     */
    void stateChanged(ServerState current);
}
