package dev.grizzlyboot.memcached;

/**
 * The key exists where the operation needs it not to, or its CAS value has changed.
 */
public class KeyExistsException extends MemcachedStatusException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for {@link ServerStatus#KEY_EXISTS}.
     *
     * @param message the operation and key
     */
    public KeyExistsException(String message) {
        super(ServerStatus.KEY_EXISTS, message);
    }
}
