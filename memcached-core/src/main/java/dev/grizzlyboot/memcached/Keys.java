package dev.grizzlyboot.memcached;

import dev.grizzlyboot.memcached.internal.protocol.Utf8;

/** Validates keys and encodes them as memcached sees them. Stateless. */
final class Keys {

    static final int MAX_LENGTH = 250;

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
        if (key == null || key.isEmpty()) {
            throw new InvalidKeyException("memcached keys must not be " + (key == null ? "null" : "empty"));
        }
        byte[] bytes = Utf8.encode(key);
        if (bytes == null) {
            // getBytes would write '?' for an unpaired surrogate: this would be another key's item.
            throw new InvalidKeyException("key holds an unpaired surrogate, which has no UTF-8 form: '"
                    + printable(key) + "'");
        }
        if (bytes.length > MAX_LENGTH) {
            throw new InvalidKeyException("key is " + bytes.length + " bytes in UTF-8; memcached allows at most "
                    + MAX_LENGTH + ": '" + key.substring(0, 40) + "...'");
        }
        for (byte b : bytes) {
            if ((b >= 0 && b <= 0x20) || b == 0x7F) {
                throw new InvalidKeyException(String.format(
                        "key contains whitespace or control character 0x%02x: '%s'", b, printable(key)));
            }
        }
        return bytes;
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
