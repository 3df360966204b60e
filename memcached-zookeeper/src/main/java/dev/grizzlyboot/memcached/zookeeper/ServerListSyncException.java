package dev.grizzlyboot.memcached.zookeeper;

import dev.grizzlyboot.memcached.MemcachedException;

/**
 * A server-list operation through ZooKeeper failed: ZooKeeper could not be reached in time, or
 * answered with an error. Nothing was changed unless the message says otherwise. Immutable.
 */
public class ServerListSyncException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    public ServerListSyncException(String message) {
        super(message);
    }

    public ServerListSyncException(String message, Throwable cause) {
        super(message, cause);
    }
}
