package dev.grizzlyboot.memcached.zookeeper;

/**
 * A proposal lost: the committed version is not the one the caller expected, another change is
 * still in progress, or a concurrent proposal was written first. Nothing was written; re-read
 * {@link ZooKeeperServerListSync#state()} and propose again if the change is still wanted.
 * Immutable.
 */
public final class ServerListConflictException extends ServerListSyncException {

    private static final long serialVersionUID = 1L;

    /** The committed version the losing proposal was based on. */
    private final long expectedVersion;

    /**
     * Creates the exception for a proposal that lost.
     *
     * @param message why it lost
     * @param expectedVersion the committed version the proposal expected
     */
    public ServerListConflictException(String message, long expectedVersion) {
        super(message);
        this.expectedVersion = expectedVersion;
    }

    /**
     * The committed version the losing proposal was based on.
     *
     * @return the version passed to {@link ZooKeeperServerListSync#proposeServers}
     */
    public long expectedVersion() {
        return expectedVersion;
    }
}
