package dev.grizzlyboot.memcached;

/**
 * The value is larger than the server's item size limit (1 MiB unless memcached runs with {@code -I}). Nothing was stored; other keys are unaffected.
 * A refused {@code set} (single or in {@code setMulti}) also leaves its key without the old value,
 * whether memcached or the client's own check refused it, so that the value it meant to replace is
 * not read as current.
 */
public class ValueTooLargeException extends MemcachedStatusException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for {@link ServerStatus#VALUE_TOO_LARGE}.
     *
     * @param message the key and the sizes involved
     */
    public ValueTooLargeException(String message) {
        super(ServerStatus.VALUE_TOO_LARGE, message);
    }
}
