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
        // A key has at least as many UTF-8 bytes as chars, so a longer one is out before the scan.
        if (key == null || key.isEmpty() || key.length() > MAX_LENGTH) {
            return false;
        }
        int length = utf8Length(key);
        return length != INVALID && length <= MAX_LENGTH;
    }

    /**
     * The key's length in UTF-8, or {@link #INVALID} if it holds a whitespace or control character
     * or an unpaired surrogate (for which {@link String#getBytes} would write {@code '?'}: another
     * key). The scan has no early exit, so the JIT can vectorize it; it counts each surrogate as
     * three bytes, and only a key that has any is looked at again to pair them.
     */
    private static int utf8Length(String key) {
        int length = 0;
        int controls = 0;
        int surrogates = 0;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            controls |= c <= 0x20 || c == 0x7F ? 1 : 0;
            surrogates |= (c & 0xF800) == 0xD800 ? 1 : 0;
            length += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        }
        if (controls != 0) {
            return INVALID;
        }
        return surrogates == 0 ? length : pairSurrogates(key, length);
    }

    /** {@code length} with each surrogate pair as its 4 bytes rather than 6, or INVALID at an unpaired one. */
    private static int pairSurrogates(String key, int length) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
                length -= 2;
                i++;
            } else if (Character.isSurrogate(c)) {
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
                + MAX_LENGTH + ": '" + printable(key.substring(0, key.offsetByCodePoints(0, 40))) + "...'";
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
