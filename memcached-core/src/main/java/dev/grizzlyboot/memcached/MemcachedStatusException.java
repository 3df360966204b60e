package dev.grizzlyboot.memcached;

/**
 * The server answered with an error status. Subclasses name the common ones; {@link #status()}
 * gives the exact status in every case. The connection stays usable.
 */
public class MemcachedStatusException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    private final ServerStatus status;

    public MemcachedStatusException(ServerStatus status, String message) {
        super(message);
        this.status = status;
    }

    /** The status the server answered with. */
    public ServerStatus status() {
        return status;
    }

    /** The exception for a status, its most specific subclass where there is one. */
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
