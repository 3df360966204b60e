package dev.grizzlyboot.memcached;

/**
 * The server could not be reached, or the connection carrying the operation was lost before the
 * answer came. Whether a write took effect is unknown when the connection was lost mid-flight.
 */
public class MemcachedConnectionException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception without a cause.
     *
     * @param message the server and what happened to the connection
     */
    public MemcachedConnectionException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the I/O failure behind it.
     *
     * @param message the server and what happened to the connection
     * @param cause the underlying failure
     */
    public MemcachedConnectionException(String message, Throwable cause) {
        super(message, cause);
    }
}
