package dev.grizzlyboot.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import dev.grizzlyboot.memcached.MemcachedClient;

/**
 * Maps a cache's keys to memcached keys: {@code prefix:cacheName:generation:key} (the key is its
 * {@code toString()}; {@code :} and {@code %} in the cache name are percent-escaped), or, for keys
 * memcached cannot take as they are, {@code prefix:cacheName:generation:#} followed by the
 * SHA-256 of the key in unpadded base64url. Stateless apart from its fixed namespace; thread-safe.
 *
 * <p>A key is hashed when the whole memcached key would be over 250 UTF-8 bytes, when it holds
 * whitespace or control characters or an unpaired surrogate ({@link MemcachedClient#isValidKey}),
 * or when it starts with {@code #} (so a plain key can never look like a hashed one). If even the
 * namespace is unusable (a huge prefix or a cache name with spaces), the whole string is hashed,
 * {@code #} first.
 */
final class CacheKeys {

    private static final char HASHED = '#';

    private final String namespace;

    CacheKeys(String keyPrefix, String cacheName) {
        // Escaped so that cache "a" with key "1:x" and cache "a:1" with key "x" stay apart.
        String name = cacheName.replace("%", "%25").replace(":", "%3A");
        this.namespace = keyPrefix.isEmpty() ? name : keyPrefix + ":" + name;
    }

    /**
     * The memcached key of an entry in the given generation.
     *
     * @throws IllegalArgumentException if {@code key} is {@code null}: Spring's caches take no
     *         {@code null} key, and its {@code toString()} form would meet the key {@code "null"}
     */
    String entryKey(long generation, Object key) {
        if (key == null) {
            throw new IllegalArgumentException("a cache key must not be null");
        }
        String keyText = key.toString();
        String prefix = namespace + ":" + generation + ":";
        String plain = prefix + keyText;
        if (keyText.isEmpty() || keyText.charAt(0) != HASHED) {
            if (usable(plain)) {
                return plain;
            }
        }
        String hashedKey = prefix + hash(keyText);
        return usable(hashedKey) ? hashedKey : hash(plain);
    }

    /** The memcached key of the cache's generation counter (never equal to an entry key: no number after the name). */
    String generationKey() {
        String key = namespace + ":generation";
        return usable(key) ? key : hash(key);
    }

    private static boolean usable(String key) {
        return MemcachedClient.isValidKey(key) && key.charAt(0) != HASHED;
    }

    private static String hash(String text) {
        // UTF-8 (and Java's UTF-16 encoders) would write a stand-in for an unpaired surrogate, so
        // keys differing only there would share a hash. Such text is hashed as its chars, two bytes
        // each, after a 0xFF byte, which no UTF-8 text holds.
        byte[] bytes = unpairedSurrogate(text) ? nonUtf8Form(text) : text.getBytes(StandardCharsets.UTF_8);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            return HASHED + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Whether the text has no UTF-8 form; the encoder is asked only when a surrogate is there at all. */
    private static boolean unpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return !StandardCharsets.UTF_8.newEncoder().canEncode(text);
            }
        }
        return false;
    }

    private static byte[] nonUtf8Form(String text) {
        byte[] bytes = new byte[1 + 2 * text.length()];
        bytes[0] = (byte) 0xFF;
        for (int i = 0; i < text.length(); i++) {
            bytes[1 + 2 * i] = (byte) (text.charAt(i) >>> 8);
            bytes[2 + 2 * i] = (byte) text.charAt(i);
        }
        return bytes;
    }
}
