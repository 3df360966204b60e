package dev.grizzlyboot.memcached;

/**
 * The server answered with an error status. Subclasses name the common ones; {@link #status()}
 * gives the exact status in every case. The connection stays usable.
 */
public class MemcachedStatusException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    /** The status the server answered with. */
    private final ServerStatus status;

    /**
     * Creates the exception for any status; {@link #of} picks the subclass that names the status,
     * where there is one.
     *
     * @param status the status the server answered with
     * @param message the operation, key and server
     */
    public MemcachedStatusException(ServerStatus status, String message) {
        super(message);
        this.status = status;
    }

    /**
     * The status the server answered with.
     *
     * @return the status, also for the subclasses that name it
     */
    public ServerStatus status() {
        return status;
    }

    /**
     * The exception for a status, its most specific subclass where there is one.
     *
     * @param status the status the server answered with
     * @param message the operation, key and server
     * @return a new exception of the class that names {@code status}
     */
    public static MemcachedStatusException of(ServerStatus status, String message) {
        return switch (status) {
            case KEY_NOT_FOUND -> new KeyNotFoundException(message);
            case KEY_EXISTS -> new KeyExistsException(message);
            case VALUE_TOO_LARGE -> new ValueTooLargeException(message);
            case INVALID_ARGUMENTS -> new InvalidArgumentsException(message);
            case AUTHENTICATION_ERROR, AUTHENTICATION_CONTINUE -> new AuthenticationException(status, message);
            default -> new MemcachedStatusException(status, message);
        };
    }
}
