package dev.grizzlyboot.memcached.transcoder;

import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * The value types {@link DefaultTranscoder} stores as text, each with its type code in bits
 * 16–19 of the flags. Numbers are stored as decimal text so that {@code incr}/{@code decr} work
 * on them and other clients can read them. The code sits above the byte spymemcached and
 * xmemcached keep for their binary encodings ({@link SpymemcachedValueType}), so those clients
 * read these values as the text they are, never as a number of theirs.
 */
enum TextValueType {
    STRING(0, String.class, text -> text),
    BOOLEAN(1, Boolean.class, TextValueType::parseBoolean),
    INTEGER(2, Integer.class, Integer::valueOf),
    LONG(3, Long.class, Long::valueOf),
    SHORT(4, Short.class, Short::valueOf),
    BYTE(5, Byte.class, Byte::valueOf),
    FLOAT(6, Float.class, Float::valueOf),
    DOUBLE(7, Double.class, Double::valueOf),
    CHARACTER(9, Character.class, TextValueType::parseCharacter);

    static final int SHIFT = 16;
    static final int MASK = 0xF << SHIFT;
    /** {@code values()} clones its array on every call, and every encode looks a type up. */
    private static final TextValueType[] ALL = values();

    private final int code;
    private final Class<?> type;
    private final Function<String, Object> parser;

    TextValueType(int code, Class<?> type, Function<String, Object> parser) {
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

    static TextValueType ofValue(Object value) {
        for (TextValueType candidate : ALL) {
            if (candidate.type == value.getClass()) {
                return candidate;
            }
        }
        return null;
    }

    static TextValueType ofFlags(int flags) {
        int code = (flags & MASK) >>> SHIFT;
        for (TextValueType candidate : ALL) {
            if (candidate.code == code) {
                return candidate;
            }
        }
        return null;
    }

    /** Strict, unlike {@link Boolean#valueOf(String)}, which reads anything but "true" as false. */
    private static Boolean parseBoolean(String text) {
        return switch (text) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("not true or false: '" + text + "'");
        };
    }

    private static Character parseCharacter(String text) {
        if (text.length() != 1) {
            throw new IllegalArgumentException("not one character: '" + text + "'");
        }
        return text.charAt(0);
    }
}
