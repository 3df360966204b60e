package dev.grizzlyboot.memcached.transcoder;

import java.util.function.Function;
import java.util.regex.Pattern;

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
    INTEGER(2, Integer.class, text -> Integer.valueOf(counter(text))),
    LONG(3, Long.class, TextValueType::parseLong),
    SHORT(4, Short.class, text -> Short.valueOf(counter(text))),
    BYTE(5, Byte.class, text -> Byte.valueOf(counter(text))),
    FLOAT(6, Float.class, text -> Float.valueOf(decimal(text))),
    DOUBLE(7, Double.class, text -> Double.valueOf(decimal(text))),
    CHARACTER(9, Character.class, TextValueType::parseCharacter);

    static final int SHIFT = 16;
    static final int MASK = 0xF << SHIFT;
    /** {@code values()} clones its array on every call, and every encode looks a type up. */
    private static final TextValueType[] ALL = values();
    /**
     * What {@link Float#toString} and {@link Double#toString} write. {@code valueOf} accepts more
     * (whitespace, a type suffix, hexadecimal), none of which these values are ever stored as.
     */
    private static final Pattern DECIMAL = Pattern.compile("-?(NaN|Infinity|[0-9]+\\.[0-9]+(E-?[0-9]+)?)");

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
        return parser.apply(Utf8.decode(bytes));
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

    /**
     * The number in a counter's text. A decrement that loses digits is written over the old text
     * by memcached and padded with spaces ("10" decremented by one is "9 "), so trailing spaces
     * are part of a valid counter.
     */
    private static String counter(String text) {
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == ' ') {
            end--;
        }
        return text.substring(0, end);
    }

    /**
     * A long counter's value. Above {@link Long#MAX_VALUE} memcached's unsigned counter reads as
     * its 64 bits, as {@code incr} returns it; a negative number is one this transcoder stored.
     */
    private static Long parseLong(String text) {
        String number = counter(text);
        return number.startsWith("-") ? Long.parseLong(number) : Long.parseUnsignedLong(number);
    }

    private static String decimal(String text) {
        if (!DECIMAL.matcher(text).matches()) {
            throw new IllegalArgumentException("not a decimal number as Java writes it: '" + text + "'");
        }
        return text;
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
