package dev.grizzlyboot.memcached;

/**
 * Base of every failure this client reports: the future of an operation completes exceptionally
 * with a subclass, and the blocking facade throws it. Immutable, like all exceptions here.
 */
public class MemcachedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception without a cause.
     *
     * @param message what failed
     */
    public MemcachedException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure behind it.
     *
     * @param message what failed
     * @param cause the underlying failure
     */
    public MemcachedException(String message, Throwable cause) {
        super(message, cause);
    }
}
