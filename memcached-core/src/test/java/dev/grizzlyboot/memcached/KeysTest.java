package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The key rule against the JDK's strict UTF-8 encoder as the oracle, over generated keys of every
 * character width, around the 250-byte limit, with and without control characters and unpaired
 * surrogates.
 */
class KeysTest {

    @Test
    void generatedKeysAreValidExactlyWhenTheirStrictUtf8FormIsAMemcachedKey() {
        Random random = new Random(250);
        int valid = 0;
        for (int n = 0; n < 50_000; n++) {
            String key = generatedKey(random);
            ByteBuffer strict = strictUtf8(key);
            boolean expected = strict != null && isMemcachedKey(strict);
            assertThat(MemcachedClient.isValidKey(key)).as(() -> escaped(key)).isEqualTo(expected);
            if (expected) {
                valid++;
                assertThat(Keys.encode(key)).isEqualTo(key.getBytes(StandardCharsets.UTF_8));
            } else {
                assertThatThrownBy(() -> Keys.encode(key)).as(() -> escaped(key)).isInstanceOf(InvalidKeyException.class)
                        .hasMessageContaining(key.isEmpty() ? "empty" : hasControl(key) ? "control character"
                                : strict == null ? "unpaired surrogate" : "bytes in UTF-8");
            }
        }
        // Both outcomes are well represented, or the comparison says little.
        assertThat(valid).isBetween(10_000, 40_000);
    }

    @Test
    void theLimitIsInBytesForEveryCharacterWidth() {
        for (String character : new String[] {"k", "é", "€", "\uD83D\uDC3B"}) {
            int width = character.getBytes(StandardCharsets.UTF_8).length;
            String fits = "k".repeat(Keys.MAX_LENGTH % width) + character.repeat(Keys.MAX_LENGTH / width);
            assertThat(fits.getBytes(StandardCharsets.UTF_8)).hasSize(Keys.MAX_LENGTH);
            assertThat(MemcachedClient.isValidKey(fits)).as(character).isTrue();
            assertThat(MemcachedClient.isValidKey(fits + "k")).as(character).isFalse();
        }
        // The message quotes the key's first 40 code points, never half a pair.
        String tooLong = "k".repeat(39) + "\uD83D\uDC3B" + "k".repeat(250);
        assertThatThrownBy(() -> Keys.encode(tooLong)).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("k".repeat(39) + "\uD83D\uDC3B...");
        assertThat(MemcachedClient.isValidKey(null)).isFalse();
        assertThat(MemcachedClient.isValidKey("")).isFalse();
    }

    /** Mostly printable ASCII, with every other kind of char mixed in; lengths around the limit. */
    private static String generatedKey(Random random) {
        int chars = random.nextInt(4) == 0 ? random.nextInt(8) : 40 + random.nextInt(230);
        StringBuilder key = new StringBuilder(chars);
        int rareKinds = random.nextInt(3); // 0: ASCII only, 1: wide chars, 2: anything
        for (int i = 0; i < chars; i++) {
            int kind = random.nextInt(rareKinds == 0 ? 1 : rareKinds == 1 ? 4 : 2_000);
            switch (kind) {
                case 0, 4, 5, 6, 7, 8, 9, 10, 11 -> key.append((char) ('!' + random.nextInt(94)));
                case 1 -> key.append((char) (0x80 + random.nextInt(0x780)));
                case 2 -> key.append(random.nextBoolean() ? (char) (0x800 + random.nextInt(0xD800 - 0x800))
                        : (char) (0xE000 + random.nextInt(0x2000)));
                case 3 -> key.appendCodePoint(0x10000 + random.nextInt(0x100000));
                case 12 -> key.append(random.nextBoolean() ? (char) random.nextInt(0x21) : '\u007F');
                case 13 -> key.append((char) (0xD800 + random.nextInt(0x800)));
                default -> key.append((char) ('!' + random.nextInt(94)));
            }
        }
        return key.toString();
    }

    private static ByteBuffer strictUtf8(String key) {
        try {
            return StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(key));
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static boolean isMemcachedKey(ByteBuffer utf8) {
        if (utf8.remaining() == 0 || utf8.remaining() > Keys.MAX_LENGTH) {
            return false;
        }
        for (int i = utf8.position(); i < utf8.limit(); i++) {
            byte b = utf8.get(i);
            if ((b >= 0 && b <= 0x20) || b == 0x7F) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasControl(String key) {
        return key.chars().anyMatch(c -> c <= 0x20 || c == 0x7F);
    }

    private static String escaped(String key) {
        StringBuilder out = new StringBuilder();
        key.chars().forEach(c -> out.append(c < 0x21 || c > 0x7E ? String.format("\\u%04X", c) : String.valueOf((char) c)));
        return out.toString();
    }
}
