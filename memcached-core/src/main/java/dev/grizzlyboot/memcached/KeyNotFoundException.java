package dev.grizzlyboot.memcached;

/**
 * The key does not exist where the operation needs it to, such as {@code incr} without an initial value.
 */
public class KeyNotFoundException extends MemcachedStatusException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for {@link ServerStatus#KEY_NOT_FOUND}.
     *
     * @param message the operation and key
     */
    public KeyNotFoundException(String message) {
        super(ServerStatus.KEY_NOT_FOUND, message);
    }
}
