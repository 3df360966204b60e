package dev.grizzlyboot.memcached;

import java.nio.charset.StandardCharsets;

/** Validates keys and encodes them as memcached sees them. Stateless. */
final class Keys {

    static final int MAX_LENGTH = 250;
    private static final int INVALID = -1;

    private Keys() {
    }

    /**
     * The UTF-8 bytes of a key.
     *
     * @throws InvalidKeyException if the key is null, empty, longer than 250 bytes, holds
     *                             whitespace or control characters (which break the text protocol
     *                             and make memcached close connections), or an unpaired surrogate
     */
    static byte[] encode(String key) {
        if (!isValid(key)) {
            throw new InvalidKeyException(whyInvalid(key));
        }
        return key.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether {@link #encode} takes the key; it neither allocates nor throws. */
    static boolean isValid(String key) {
        if (key == null || key.isEmpty()) {
            return false;
        }
        int length = utf8Length(key);
        return length != INVALID && length <= MAX_LENGTH;
    }

    /**
     * The key's length in UTF-8, or {@link #INVALID} at the first whitespace or control character
     * or unpaired surrogate (for which {@link String#getBytes} would write {@code '?'}: another key).
     * Stops early once past the limit.
     */
    private static int utf8Length(String key) {
        int length = 0;
        for (int i = 0; i < key.length() && length <= MAX_LENGTH; i++) {
            char c = key.charAt(i);
            if (c < 0x80) {
                if (c <= 0x20 || c == 0x7F) {
                    return INVALID;
                }
                length++;
            } else if (c < 0x800) {
                length += 2;
            } else if (!Character.isSurrogate(c)) {
                length += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < key.length()
                    && Character.isLowSurrogate(key.charAt(i + 1))) {
                length += 4;
                i++;
            } else {
                return INVALID;
            }
        }
        return length;
    }

    private static String whyInvalid(String key) {
        if (key == null || key.isEmpty()) {
            return "memcached keys must not be " + (key == null ? "null" : "empty");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c <= 0x20 || c == 0x7F) {
                return String.format("key contains whitespace or control character 0x%02x: '%s'", (int) c,
                        printable(key));
            }
        }
        if (!StandardCharsets.UTF_8.newEncoder().canEncode(key)) {
            return "key holds an unpaired surrogate, which has no UTF-8 form: '" + printable(key) + "'";
        }
        return "key is " + key.getBytes(StandardCharsets.UTF_8).length + " bytes in UTF-8; memcached allows at most "
                + MAX_LENGTH + ": '" + key.substring(0, 40) + "...'";
    }

    private static String printable(String key) {
        StringBuilder out = new StringBuilder();
        key.codePoints().limit(60).forEach(c -> {
            if (c <= 0x20 || c == 0x7F) {
                out.append(String.format("\\x%02x", c));
            } else if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
                out.append(String.format("\\u%04X", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
