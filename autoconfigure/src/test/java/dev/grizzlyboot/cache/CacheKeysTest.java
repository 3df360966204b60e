package dev.grizzlyboot.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.springframework.cache.interceptor.SimpleKey;

/** The mapping of cache keys to memcached keys, without a server. */
class CacheKeysTest {

    private final CacheKeys books = new CacheKeys("myapp", "books");

    @Test
    void plainKeysKeepTheirReadableForm() {
        assertThat(books.entryKey(7, "isbn-123")).isEqualTo("myapp:books:7:isbn-123");
        assertThat(new CacheKeys("", "books").entryKey(7, 42)).isEqualTo("books:7:42");
        assertThat(books.entryKey(7, "ключ-日本-🐻")).isEqualTo("myapp:books:7:ключ-日本-🐻");
        assertThat(books.entryKey(7, "")).isEqualTo("myapp:books:7:");
        assertThat(books.generationKey()).isEqualTo("myapp:books:generation");
    }

    @Test
    void longOrUnsafeKeysAreHashedIntoValidKeys() {
        String thousand = "k".repeat(1_000);
        for (Object key : new Object[] {thousand, "with space", "tab\there", "new\nline", "\u007f",
                new SimpleKey("a", 1), "#looks-hashed", "é".repeat(200)}) {
            String mapped = books.entryKey(7, key);
            assertThat(mapped).as("mapping of %s", key).startsWith("myapp:books:7:#");
            assertValid(mapped);
        }
    }

    /**
     * The hashing threshold is memcached's: a memcached key of exactly 250 bytes of UTF-8 keeps its
     * readable form, one byte more is hashed (counted in bytes, so a two-byte character tips it too).
     */
    @Test
    void aKeyIsHashedFromTheFirstByteOver250() {
        String prefix = "myapp:books:7:";
        String fits = "k".repeat(250 - prefix.length());
        assertThat(books.entryKey(7, fits)).isEqualTo(prefix + fits);
        assertThat(books.entryKey(7, fits + "k")).startsWith(prefix + "#");
        String fitsInBytes = "é".repeat((250 - prefix.length()) / 2);
        assertThat(books.entryKey(7, fitsInBytes)).isEqualTo(prefix + fitsInBytes);
        assertThat(books.entryKey(7, fitsInBytes + "k")).startsWith(prefix + "#");
    }

    @Test
    void differentKeysNeverShareAMemcachedKey() {
        String base = "k".repeat(999);
        assertThat(books.entryKey(7, base + "a")).isNotEqualTo(books.entryKey(7, base + "b"));
        assertThat(books.entryKey(7, "a b")).isNotEqualTo(books.entryKey(7, "a  b"));
        assertThat(books.entryKey(7, "x")).isNotEqualTo(books.entryKey(8, "x"));
        // A plain key that looks like a hash is hashed itself, so it cannot meet a hashed key.
        String hashed = books.entryKey(7, "with space");
        String lookalike = hashed.substring("myapp:books:7:".length());
        assertThat(books.entryKey(7, lookalike)).isNotEqualTo(hashed);
    }

    @Test
    void keysWithUnpairedSurrogatesAreHashedApart() {
        // UTF-8 has no form for them: encoding writes '?', so all of these would be "a?" as they are.
        String[] keys = {"a\uD800", "a\uDBFF", "a\uDC00", "a\uDFFF", "a?"};
        java.util.Set<String> mapped = new java.util.HashSet<>();
        for (String key : keys) {
            String memcachedKey = books.entryKey(7, key);
            assertValid(memcachedKey);
            assertThat(StandardCharsets.UTF_8.newEncoder().canEncode(memcachedKey)).as(memcachedKey).isTrue();
            mapped.add(memcachedKey);
        }
        assertThat(mapped).hasSize(keys.length).contains("myapp:books:7:a?");
        // A pair is a character like any other and stays readable.
        assertThat(books.entryKey(7, "a\uD83D\uDC3B")).isEqualTo("myapp:books:7:a\uD83D\uDC3B");
    }

    @Test
    void cacheNamesWithColonsCannotCollide() {
        assertThat(new CacheKeys("", "a").entryKey(1, "2:x")).isNotEqualTo(new CacheKeys("", "a:1").entryKey(2, "x"));
        assertThat(new CacheKeys("", "a:1").generationKey()).isNotEqualTo(new CacheKeys("", "a").entryKey(1, "generation"));
    }

    @Test
    void anUnusableNamespaceIsHashedWhole() {
        CacheKeys odd = new CacheKeys("p".repeat(300), "my cache");
        assertValid(odd.entryKey(1, "x"));
        assertValid(odd.generationKey());
        assertThat(odd.entryKey(1, "x")).isNotEqualTo(odd.entryKey(2, "x")).isNotEqualTo(odd.generationKey());
    }

    private static void assertValid(String key) {
        assertThat(key.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(250);
        assertThat(key.chars()).noneMatch(c -> c <= 0x20 || c == 0x7f);
    }
}
