package dev.grizzlyboot.memcached.transcoder;

import java.util.Date;
import java.util.function.Function;

/**
 * The types spymemcached's and xmemcached's default {@code SerializingTranscoder} flag in bits
 * 8–15, with their encodings: big-endian numbers without leading zero bytes, booleans as
 * {@code '1'}/{@code '0'}. {@link DefaultTranscoder} reads them all so that values those clients
 * stored come back as what they were; of these it writes only {@code byte[]}.
 */
enum SpymemcachedValueType {
    BOOLEAN(1, SpymemcachedValueType::decodeBoolean),
    INTEGER(2, bytes -> (int) decodeNumber(bytes, Integer.BYTES)),
    LONG(3, bytes -> decodeNumber(bytes, Long.BYTES)),
    DATE(4, bytes -> new Date(decodeNumber(bytes, Long.BYTES))),
    BYTE(5, bytes -> (byte) decodeNumber(bytes, Byte.BYTES)),
    FLOAT(6, bytes -> Float.intBitsToFloat((int) decodeNumber(bytes, Integer.BYTES))),
    DOUBLE(7, bytes -> Double.longBitsToDouble(decodeNumber(bytes, Long.BYTES))),
    BYTES(8, bytes -> bytes);

    static final int SHIFT = 8;
    static final int MASK = 0xFF << SHIFT;
    private static final SpymemcachedValueType[] ALL = values();

    private final int code;
    private final Function<byte[], Object> decoder;

    SpymemcachedValueType(int code, Function<byte[], Object> decoder) {
        this.code = code;
        this.decoder = decoder;
    }

    int flags() {
        return code << SHIFT;
    }

    Object decode(byte[] bytes) {
        return decoder.apply(bytes);
    }

    /** The type flagged in bits 8–15, or {@code null} when those bits are 0 or hold a code neither client writes. */
    static SpymemcachedValueType ofFlags(int flags) {
        int code = (flags & MASK) >>> SHIFT;
        for (SpymemcachedValueType candidate : ALL) {
            if (candidate.code == code) {
                return candidate;
            }
        }
        return null;
    }

    private static long decodeNumber(byte[] bytes, int maxLength) {
        if (bytes.length > maxLength) {
            throw new IllegalArgumentException(bytes.length + " bytes, more than the " + maxLength + " of this type");
        }
        long value = 0;
        for (byte b : bytes) {
            value = value << 8 | (b & 0xFF);
        }
        return value;
    }

    private static Boolean decodeBoolean(byte[] bytes) {
        if (bytes.length != 1 || (bytes[0] != '1' && bytes[0] != '0')) {
            throw new IllegalArgumentException("not the one byte '1' or '0'");
        }
        return bytes[0] == '1';
    }
}
