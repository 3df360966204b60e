package dev.grizzlyboot.memcached;

/**
 * An operation got no answer within its timeout. Whether a write took effect on the server is
 * unknown. The connection stays in use: a late answer is matched to this operation and dropped.
 */
public class MemcachedTimeoutException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for an operation that got no answer in time.
     *
     * @param message the operation, the server and the time waited
     */
    public MemcachedTimeoutException(String message) {
        super(message);
    }
}
