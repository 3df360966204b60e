package dev.grizzlyboot.memcached.internal.protocol;

/** Binary-protocol opcodes this client sends. Internal. */
public enum Opcode {
    GET(0x00), SET(0x01), ADD(0x02), REPLACE(0x03), DELETE(0x04), INCREMENT(0x05), DECREMENT(0x06),
    FLUSH(0x08), GETQ(0x09), NOOP(0x0a), VERSION(0x0b), APPEND(0x0e), PREPEND(0x0f), STAT(0x10),
    SETQ(0x11), DELETEQ(0x14), TOUCH(0x1c), GAT(0x1d), SASL_LIST_MECHS(0x20), SASL_AUTH(0x21);

    private final byte code;

    Opcode(int code) {
        this.code = (byte) code;
    }

    byte code() {
        return code;
    }

    /**
     * Whether memcached allocates, links or unlinks an item for this request (the set, delete and
     * counter families). That path takes memcached's global slab lock and the slab class's LRU
     * lock several times per key, so such requests from two of its worker threads at once contend.
     */
    boolean changesItems() {
        return switch (this) {
            case SET, ADD, REPLACE, DELETE, INCREMENT, DECREMENT, APPEND, PREPEND, SETQ, DELETEQ -> true;
            default -> false;
        };
    }
}
