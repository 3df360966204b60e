package dev.grizzlyboot.memcached;

/**
 * The status field of a binary-protocol response. Operations whose answers are expected outcomes
 * (a miss, "already exists") report them as values; the others surface as
 * {@link MemcachedStatusException}s carrying one of these.
 */
public enum ServerStatus {
    NO_ERROR(0x0000),
    KEY_NOT_FOUND(0x0001),
    KEY_EXISTS(0x0002),
    VALUE_TOO_LARGE(0x0003),
    INVALID_ARGUMENTS(0x0004),
    ITEM_NOT_STORED(0x0005),
    NON_NUMERIC_VALUE(0x0006),
    WRONG_VBUCKET(0x0007),
    AUTHENTICATION_ERROR(0x0020),
    AUTHENTICATION_CONTINUE(0x0021),
    UNKNOWN_COMMAND(0x0081),
    OUT_OF_MEMORY(0x0082),
    NOT_SUPPORTED(0x0083),
    INTERNAL_ERROR(0x0084),
    BUSY(0x0085),
    TEMPORARY_FAILURE(0x0086),
    UNKNOWN(-1);

    private final int code;

    ServerStatus(int code) {
        this.code = code;
    }

    /** The numeric code on the wire. */
    public int code() {
        return code;
    }

    /** The status for a wire code; {@link #UNKNOWN} for codes this client does not know. */
    public static ServerStatus of(int code) {
        for (ServerStatus status : values()) {
            if (status.code == code) {
                return status;
            }
        }
        return UNKNOWN;
    }
}
