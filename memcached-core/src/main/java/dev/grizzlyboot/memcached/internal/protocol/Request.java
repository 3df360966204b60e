package dev.grizzlyboot.memcached.internal.protocol;

import java.nio.charset.StandardCharsets;
/**
 * One binary-protocol request: header fields, extras, key and value. The opaque field is filled
 * in when the request is written, by the connection that sends it. Immutable.
 */
public final class Request {

    static final int HEADER_LENGTH = 24;
    private static final byte MAGIC = (byte) 0x80;
    private static final byte[] EMPTY = new byte[0];

    private final Opcode opcode;
    private final byte[] key;
    private final byte[] extras;
    private final byte[] value;
    private final long cas;

    private Request(Opcode opcode, byte[] key, byte[] extras, byte[] value, long cas) {
        this.opcode = opcode;
        this.key = key;
        this.extras = extras;
        this.value = value;
        this.cas = cas;
    }

    /** A request with no key, extras or value, such as NOOP or VERSION. */
    public static Request of(Opcode opcode) {
        return new Request(opcode, EMPTY, EMPTY, EMPTY, 0);
    }

    /** A request with a key only, such as GET or DELETE. */
    public static Request keyed(Opcode opcode, byte[] key) {
        return new Request(opcode, key, EMPTY, EMPTY, 0);
    }

    /** A storage request (SET, ADD, REPLACE, SETQ, and CAS when {@code cas} is not 0). */
    public static Request store(Opcode opcode, byte[] key, int flags, int expiry, byte[] value, long cas) {
        byte[] extras = new byte[8];
        putInt(extras, 0, flags);
        putInt(extras, 4, expiry);
        return new Request(opcode, key, extras, value, cas);
    }

    /** APPEND or PREPEND: a value and no extras. */
    public static Request concat(Opcode opcode, byte[] key, byte[] value) {
        return new Request(opcode, key, EMPTY, value, 0);
    }

    /** TOUCH or GAT: a key and a new expiry. */
    public static Request touch(Opcode opcode, byte[] key, int expiry) {
        byte[] extras = new byte[4];
        putInt(extras, 0, expiry);
        return new Request(opcode, key, extras, EMPTY, 0);
    }

    /** INCREMENT or DECREMENT; {@code expiry} 0xFFFFFFFF means "do not create a missing key". */
    public static Request counter(Opcode opcode, byte[] key, long delta, long initial, int expiry) {
        byte[] extras = new byte[20];
        putLong(extras, 0, delta);
        putLong(extras, 8, initial);
        putInt(extras, 16, expiry);
        return new Request(opcode, key, extras, EMPTY, 0);
    }

    /** FLUSH, optionally delayed by {@code delay} seconds. */
    public static Request flush(int delay) {
        byte[] extras = new byte[4];
        putInt(extras, 0, delay);
        return new Request(Opcode.FLUSH, EMPTY, extras, EMPTY, 0);
    }

    /** STAT for a group ("items", "slabs", "settings"), or the general statistics when {@code group} is empty. */
    public static Request stat(String group) {
        return new Request(Opcode.STAT, group.getBytes(StandardCharsets.US_ASCII), EMPTY, EMPTY, 0);
    }

    /** SASL_AUTH: the mechanism name as the key, the mechanism's first message as the value. */
    public static Request saslAuth(String mechanism, byte[] message) {
        return new Request(Opcode.SASL_AUTH, mechanism.getBytes(StandardCharsets.US_ASCII), EMPTY, message, 0);
    }

    /** Bytes this request takes on the wire. */
    int length() {
        return HEADER_LENGTH + extras.length + key.length + value.length;
    }

    /**
     * Writes this request with the given opaque into {@code target} at {@code offset}, straight
     * into the array (a buffer's {@code put} per field checks bounds and position every time).
     *
     * @return the offset after the request
     */
    int writeTo(byte[] target, int offset, int opaque) {
        target[offset] = MAGIC;
        target[offset + 1] = opcode.code();
        target[offset + 2] = (byte) (key.length >>> 8);
        target[offset + 3] = (byte) key.length;
        target[offset + 4] = (byte) extras.length;
        target[offset + 5] = 0;
        target[offset + 6] = 0;
        target[offset + 7] = 0;
        putInt(target, offset + 8, extras.length + key.length + value.length);
        putInt(target, offset + 12, opaque);
        putLong(target, offset + 16, cas);
        int next = offset + HEADER_LENGTH;
        System.arraycopy(extras, 0, target, next, extras.length);
        next += extras.length;
        System.arraycopy(key, 0, target, next, key.length);
        next += key.length;
        System.arraycopy(value, 0, target, next, value.length);
        return next + value.length;
    }

    Opcode opcode() {
        return opcode;
    }

    private static void putInt(byte[] target, int offset, int value) {
        target[offset] = (byte) (value >>> 24);
        target[offset + 1] = (byte) (value >>> 16);
        target[offset + 2] = (byte) (value >>> 8);
        target[offset + 3] = (byte) value;
    }

    private static void putLong(byte[] target, int offset, long value) {
        putInt(target, offset, (int) (value >>> 32));
        putInt(target, offset + 4, (int) value);
    }
}
