package dev.grizzlyboot.memcached.transcoder;

import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * The value types {@link DefaultTranscoder} stores as text, each with its type code in bits
 * 8–11 of the flags. Numbers are stored as decimal text so that {@code incr}/{@code decr} work
 * on them and other clients can read them.
 */
enum ValueType {
    STRING(0, String.class, s -> s),
    BOOLEAN(1, Boolean.class, Boolean::valueOf),
    INTEGER(2, Integer.class, Integer::valueOf),
    LONG(3, Long.class, Long::valueOf),
    SHORT(4, Short.class, Short::valueOf),
    BYTE(5, Byte.class, Byte::valueOf),
    FLOAT(6, Float.class, Float::valueOf),
    DOUBLE(7, Double.class, Double::valueOf),
    CHARACTER(9, Character.class, s -> s.charAt(0));

    static final int SHIFT = 8;
    static final int MASK = 0xF << SHIFT;
    /** {@code values()} clones its array on every call, and every encode and decode looks a type up. */
    private static final ValueType[] ALL = values();

    private final int code;
    private final Class<?> type;
    private final Function<String, Object> parser;

    ValueType(int code, Class<?> type, Function<String, Object> parser) {
        this.code = code;
        this.type = type;
        this.parser = parser;
    }

    int flags() {
        return code << SHIFT;
    }

    Object decode(byte[] bytes) {
        return parser.apply(new String(bytes, StandardCharsets.UTF_8));
    }

    static ValueType ofValue(Object value) {
        for (ValueType candidate : ALL) {
            if (candidate.type == value.getClass()) {
                return candidate;
            }
        }
        return null;
    }

    static ValueType ofFlags(int flags) {
        int code = (flags & MASK) >>> SHIFT;
        for (ValueType candidate : ALL) {
            if (candidate.code == code) {
                return candidate;
            }
        }
        return null;
    }
}
