package dev.grizzlyboot.memcached;

/**
 * An operation got no answer within its timeout. Whether a write took effect on the server is
 * unknown. The connection stays in use: a late answer is matched to this operation and dropped.
 */
public class MemcachedTimeoutException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    public MemcachedTimeoutException(String message) {
        super(message);
    }
}
