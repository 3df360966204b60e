package dev.grizzlyboot.memcached;

/**
 * The server rejected the request's arguments.
 */
public class InvalidArgumentsException extends MemcachedStatusException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for {@link ServerStatus#INVALID_ARGUMENTS}.
     *
     * @param message what was rejected
     */
    public InvalidArgumentsException(String message) {
        super(ServerStatus.INVALID_ARGUMENTS, message);
    }
}
