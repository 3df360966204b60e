package dev.grizzlyboot.memcached;

/**
 * The status field of a binary-protocol response. Operations whose answers are expected outcomes
 * (a miss, "already exists") report them as values; the others surface as
 * {@link MemcachedStatusException}s carrying one of these.
 */
public enum ServerStatus {
    /** The operation succeeded. */
    NO_ERROR(0x0000),
    /** The key is not stored. */
    KEY_NOT_FOUND(0x0001),
    /** The key is stored (for {@code add}), or its CAS token has changed. */
    KEY_EXISTS(0x0002),
    /** The item is larger than the server's item size limit. */
    VALUE_TOO_LARGE(0x0003),
    /** The request's fields are malformed, such as a key too long or extras of the wrong size. */
    INVALID_ARGUMENTS(0x0004),
    /** The value was not stored, such as an {@code append} to a key that is not stored. */
    ITEM_NOT_STORED(0x0005),
    /** The value is not a number, so {@code incr} and {@code decr} cannot change it. */
    NON_NUMERIC_VALUE(0x0006),
    /** The server does not own the request's vbucket (Couchbase; memcached does not send it). */
    WRONG_VBUCKET(0x0007),
    /** The SASL login failed, or the server needs one. */
    AUTHENTICATION_ERROR(0x0020),
    /** The SASL exchange needs another step. */
    AUTHENTICATION_CONTINUE(0x0021),
    /** The server does not know the opcode. */
    UNKNOWN_COMMAND(0x0081),
    /** The server could not allocate memory for the item. */
    OUT_OF_MEMORY(0x0082),
    /** The server knows the command but does not support it. */
    NOT_SUPPORTED(0x0083),
    /** The server failed in a way it does not explain. */
    INTERNAL_ERROR(0x0084),
    /** The server is too busy to take the request. */
    BUSY(0x0085),
    /** The server cannot take the request now; retrying later may succeed. */
    TEMPORARY_FAILURE(0x0086),
    /** A status this client does not know; never on the wire. */
    UNKNOWN(-1);

    /** {@code values()} clones its array on every call, and every response looks its status up. */
    private static final ServerStatus[] ALL = values();

    private final int code;

    ServerStatus(int code) {
        this.code = code;
    }

    /**
     * The numeric code on the wire.
     *
     * @return the code, or -1 for {@link #UNKNOWN}
     */
    public int code() {
        return code;
    }

    /**
     * The status for a wire code; {@link #UNKNOWN} for codes this client does not know.
     *
     * @param code the status field of a response
     * @return the matching status
     */
    public static ServerStatus of(int code) {
        for (ServerStatus status : ALL) {
            if (status.code == code) {
                return status;
            }
        }
        return UNKNOWN;
    }
}
