package dev.grizzlyboot.memcached.zookeeper;

import dev.grizzlyboot.memcached.MemcachedException;

/**
 * A server-list operation through ZooKeeper failed: ZooKeeper could not be reached in time, or
 * answered with an error. Nothing was changed unless the message says otherwise. Immutable.
 */
public class ServerListSyncException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception without a cause.
     *
     * @param message what failed
     */
    public ServerListSyncException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the ZooKeeper failure behind it.
     *
     * @param message what failed
     * @param cause the Curator or ZooKeeper exception
     */
    public ServerListSyncException(String message, Throwable cause) {
        super(message, cause);
    }
}
