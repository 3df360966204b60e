package dev.grizzlyboot.memcached;

/**
 * The server could not be reached, or the connection carrying the operation was lost before the
 * answer came. Whether a write took effect is unknown when the connection was lost mid-flight.
 */
public class MemcachedConnectionException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    public MemcachedConnectionException(String message) {
        super(message);
    }

    public MemcachedConnectionException(String message, Throwable cause) {
        super(message, cause);
    }
}
