package dev.grizzlyboot.memcached.zookeeper;

/**
 * A znode of the cluster holds something no member wrote: content that is not the expected
 * {@code key=value} lines, a missing field, or a field that is not a valid value (for example
 * after someone edited it with {@code zkCli}). Members report it in
 * {@link SyncState#lastError()}, keep routing with the list they use, and carry on by themselves
 * once the node is fixed. Immutable.
 */
public final class UnreadableZnodeException extends ServerListSyncException {

    private static final long serialVersionUID = 1L;

    /** The full path of the unreadable znode. */
    private final String path;
    /** The key of the bad line, or null when the content as a whole is unreadable. */
    private final String field;

    UnreadableZnodeException(String path, String field, String problem) {
        super("znode " + path + (field == null ? "" : ", field '" + field + "'") + ": " + problem);
        this.path = path;
        this.field = field;
    }

    /**
     * The node's path.
     *
     * @return the full path of the znode, e.g. {@code /grizzly-memcached/default/committed}
     */
    public String path() {
        return path;
    }

    /**
     * The field at fault.
     *
     * @return the key of the bad line, e.g. {@code version}, or null if the content as a whole is unreadable
     */
    public String field() {
        return field;
    }
}
