package dev.grizzlyboot.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.TranscoderException;
import dev.grizzlyboot.memcached.transcoder.DefaultTranscoder;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.cache.Cache;
import org.springframework.cache.interceptor.SimpleKey;

/** The cache operations against a real memcached, checked through the cache and on the server. */
class MemcachedCacheTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private MemcachedProcess server;
    private MemcachedClient client;
    private MemcachedCacheManager manager;
    private MemcachedCache books;

    /** A value class of the application, which deserialization must be told to allow. */
    record Book(String isbn, String title) implements Serializable {
    }

    @BeforeEach
    void setUp() {
        server = memcached.first();
        server.flushAll();
        client = TestClients.connect(server.address());
        manager = MemcachedCacheManager.builder(client).build();
        books = (MemcachedCache) manager.getCache("books");
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    @Test
    void putThenGetReadsTheValueBackFromMemcached() {
        assertThat(books.get("isbn-1")).as("miss").isNull();

        books.put("isbn-1", "Dune");

        assertThat(books.get("isbn-1").get()).isEqualTo("Dune");
        assertThat(books.get("isbn-1", String.class)).isEqualTo("Dune");
        assertThat(server.textCommand("mg " + books.memcachedKey("isbn-1") + " v")).containsExactly("VA 4", "Dune");
        books.put("isbn-1", "Dune Messiah");
        assertThat(books.get("isbn-1").get()).isEqualTo("Dune Messiah");
    }

    /**
     * A value too large for memcached fails its put (skipped, as a failing memcached is) and takes
     * the entry it meant to replace with it: a later read runs the method again instead of serving
     * what the put was replacing.
     */
    @Test
    void aPutTooLargeForMemcachedLeavesNoStaleEntry() {
        books.put("isbn-9", "first edition");
        byte[] tooLarge = new byte[2 * 1024 * 1024];
        new java.util.Random(9).nextBytes(tooLarge);

        books.put("isbn-9", tooLarge);

        assertThat(books.get("isbn-9")).isNull();
        assertThat(server.textCommand("mg " + books.memcachedKey("isbn-9") + " v")).containsExactly("EN");
        books.put("isbn-9", "second edition");
        assertThat(books.get("isbn-9").get()).isEqualTo("second edition");
    }

    @Test
    void keysWithoutAUtf8FormAreEntriesOfTheirOwn() {
        // In UTF-8 both keys would be "a?": each must still be its own entry, and not "a?"'s.
        books.put("a\uD800", "high");
        books.put("a\uDC00", "low");
        books.put("a?", "question");

        assertThat(books.get("a\uD800").get()).isEqualTo("high");
        assertThat(books.get("a\uDC00").get()).isEqualTo("low");
        assertThat(books.get("a?").get()).isEqualTo("question");
    }

    @Test
    void aNullKeyIsRefusedByEveryOperationAndNeverMeetsTheKeyNull() {
        books.put("null", "stored under the text null");
        Callable<String> loader = () -> "loaded";

        for (Runnable call : List.<Runnable>of(() -> books.get(null), () -> books.get(null, String.class),
                () -> books.get(null, loader), () -> books.put(null, "x"), () -> books.putIfAbsent(null, "x"),
                () -> books.evict(null), () -> books.evictIfPresent(null))) {
            assertThatThrownBy(call::run).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key must not be null");
        }
        assertThat(books.retrieve(null)).failsWithin(Duration.ofSeconds(5))
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(IllegalArgumentException.class);
        assertThat(books.retrieve(null, () -> CompletableFuture.completedFuture("loaded")))
                .failsWithin(Duration.ofSeconds(5)).withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(IllegalArgumentException.class);
        assertThat(books.get("null").get()).isEqualTo("stored under the text null");
    }

    @Test
    void putIfAbsentStoresOnlyTheFirstValue() {
        assertThat(books.putIfAbsent("isbn-2", "first")).isNull();
        Cache.ValueWrapper existing = books.putIfAbsent("isbn-2", "second");

        assertThat(existing).isNotNull();
        assertThat(existing.get()).isEqualTo("first");
        assertThat(books.get("isbn-2").get()).isEqualTo("first");
    }

    @Test
    void evictRemovesTheEntryFromMemcached() {
        books.put("a", "1");
        books.put("b", "2");

        books.evict("a");
        assertThat(books.evictIfPresent("b")).isTrue();
        assertThat(books.evictIfPresent("b")).isFalse();

        assertThat(books.get("a")).isNull();
        assertThat(books.get("b")).isNull();
        assertThat(server.textCommand("mg " + books.memcachedKey("a") + " v")).containsExactly("EN");
    }

    @Test
    void clearHidesEveryEntryOfThisCacheOnly() {
        MemcachedCache authors = (MemcachedCache) manager.getCache("authors");
        books.put("a", "1");
        books.put("b", "2");
        authors.put("a", "Herbert");
        String oldKey = books.memcachedKey("a");

        books.clear();

        assertThat(books.get("a")).isNull();
        assertThat(books.get("b")).isNull();
        assertThat(authors.get("a").get()).as("other caches keep their entries").isEqualTo("Herbert");
        assertThat(books.memcachedKey("a")).as("new generation, new key").isNotEqualTo(oldKey);
        assertThat(server.textCommand("mg " + oldKey + " v")).as("old entries stay until they age out")
                .containsExactly("VA 1", "1");
        books.put("a", "3");
        assertThat(books.get("a").get()).isEqualTo("3");
        assertThat(books.invalidate()).as("prior presence is not known").isFalse();
        assertThat(books.get("a")).isNull();
    }

    @Test
    void nullValuesAreCachedAsAMarkerWhenAllowed() {
        books.put("nothing", null);

        Cache.ValueWrapper cached = books.get("nothing");
        assertThat(cached).as("a cached null is a hit").isNotNull();
        assertThat(cached.get()).isNull();
        assertThat(server.textCommand("mg " + books.memcachedKey("nothing") + " v").get(1))
                .isEqualTo(MemcachedCache.NULL_MARKER);
        AtomicInteger loads = new AtomicInteger();
        assertThat(books.get("nothing", () -> "loaded-" + loads.incrementAndGet())).isNull();
        assertThat(loads).hasValue(0);
    }

    @Test
    void nullValuesAreRefusedOrSkippedWhenNotAllowed() {
        MemcachedCacheManager strict = MemcachedCacheManager.builder(client)
                .cacheDefaults(MemcachedCacheConfiguration.defaultCacheConfig().cacheNullValues(false)).build();
        Cache cache = strict.getCache("strict");

        assertThatThrownBy(() -> cache.put("k", null)).isInstanceOf(IllegalArgumentException.class);
        AtomicInteger loads = new AtomicInteger();
        Callable<String> loadsNull = () -> {
            loads.incrementAndGet();
            return null;
        };
        assertThat(cache.get("k", loadsNull)).isNull();
        assertThat(cache.get("k")).as("a loaded null is not cached").isNull();
        assertThat(loads).hasValue(1);
        // A null marker written by a cache that allows nulls reads as absent, never as a NullValue.
        books.put("shared", null);
        Cache sameNameStrict = strict.getCache("books");
        assertThat(sameNameStrict.get("shared")).isNull();
        // Absent to it, so putIfAbsent stores there, and says so truly; a null-allowing cache then sees the value.
        assertThat(sameNameStrict.putIfAbsent("shared", "strict's value")).isNull();
        assertThat(sameNameStrict.get("shared").get()).isEqualTo("strict's value");
        assertThat(books.get("shared").get()).isEqualTo("strict's value");
        assertThat(books.putIfAbsent("shared", "other").get()).isEqualTo("strict's value");
        // To the cache that wrote it, a cached null is present.
        books.put("null-for-books", null);
        assertThat(books.putIfAbsent("null-for-books", "x")).isNotNull().extracting(Cache.ValueWrapper::get).isNull();
    }

    /** memcached started with {@code -C} gives no CAS tokens: a cached null cannot be replaced safely, so it is not. */
    @Test
    void putIfAbsentOverACachedNullIsSkippedWhenMemcachedKeepsNoCasTokens() {
        try (MemcachedProcess noCas = MemcachedProcess.start(MemcachedOptions.defaults().withExtraArguments("-C"));
             MemcachedClient noCasClient = TestClients.connect(noCas.address())) {
            Cache allowing = MemcachedCacheManager.builder(noCasClient).build().getCache("books");
            allowing.put("k", null);
            MemcachedCacheConfiguration strict = MemcachedCacheConfiguration.defaultCacheConfig().cacheNullValues(false);
            Cache skipping = MemcachedCacheManager.builder(noCasClient).cacheDefaults(strict).build().getCache("books");
            Cache throwing = MemcachedCacheManager.builder(noCasClient).cacheDefaults(strict).propagateErrors(true).build()
                    .getCache("books");

            assertThat(skipping.putIfAbsent("k", "v")).isNull();
            assertThatThrownBy(() -> throwing.putIfAbsent("k", "v")).isInstanceOf(MemcachedException.class)
                    .hasMessageContaining("no CAS token");
            assertThat(allowing.get("k")).as("the cached null, untouched").isNotNull().extracting(Cache.ValueWrapper::get).isNull();
        }
    }

    @Test
    void longNonAsciiAndUnsafeKeysAllWorkAndStayApart() {
        List<Object> keys = List.of("k".repeat(1_000), "k".repeat(999) + "x", "ключ-日本-🐻", "é".repeat(500),
                "with space", "with  space", "line\nbreak", "", "#hash-like", new SimpleKey("a", 1), 42L);
        for (int i = 0; i < keys.size(); i++) {
            books.put(keys.get(i), "value-" + i);
        }
        for (int i = 0; i < keys.size(); i++) {
            Object key = keys.get(i);
            assertThat(books.get(key)).as("key %s", key).isNotNull();
            assertThat(books.get(key).get()).as("key %s", key).isEqualTo("value-" + i);
        }
        assertThat(books.memcachedKey("ключ-日本-🐻")).as("short UTF-8 keys stay readable").endsWith(":ключ-日本-🐻");
        assertThat(books.memcachedKey("k".repeat(1_000))).contains(":#").hasSizeLessThan(100);
    }

    @Test
    void aReadCostsOneRoundTripWhileTheGenerationIsFresh() {
        MemcachedCacheManager slowRefresh = MemcachedCacheManager.builder(client)
                .generationRefreshInterval(Duration.ofMinutes(5)).build();
        Cache cache = slowRefresh.getCache("hot");
        cache.put("k", "v");
        Map<String, String> before = server.stats();

        for (int i = 0; i < 50; i++) {
            assertThat(cache.get("k").get()).isEqualTo("v");
        }

        Map<String, String> after = server.stats();
        assertThat(delta(before, after, "cmd_get")).isEqualTo(50);
        assertThat(delta(before, after, "incr_hits") + delta(before, after, "incr_misses")).as("generation reads").isZero();
    }

    @Test
    void applicationClassesNeedTheTranscodersAllowList() {
        Book dune = new Book("isbn-9", "Dune");
        books.put("dune", dune);
        assertThat(books.get("dune")).as("rejected by the allow-list: logged, read as a miss").isNull();
        MemcachedCacheManager throwing = MemcachedCacheManager.builder(client).propagateErrors(true).build();
        assertThatThrownBy(() -> throwing.getCache("books").get("dune")).isInstanceOf(TranscoderException.class)
                .hasMessageContaining("allow");

        // A putIfAbsent that cannot read what is there skips the write: it never replaces it.
        assertThat(books.putIfAbsent("dune", "another book")).isNull();
        assertThatThrownBy(() -> throwing.getCache("books").putIfAbsent("dune", "another book"))
                .isInstanceOf(TranscoderException.class);

        try (MemcachedClient allowing = TestClients.patient(server.address())
                .transcoder(DefaultTranscoder.builder().allow("dev.grizzlyboot.cache.*").build()).build()) {
            Cache cache = MemcachedCacheManager.builder(allowing).build().getCache("books");
            assertThat(cache.get("dune", Book.class)).isEqualTo(dune);
        }
    }

    @Test
    void onlyConfiguredCachesExistWhenCreationOnDemandIsDisabled() {
        MemcachedCacheConfiguration hourly = MemcachedCacheConfiguration.defaultCacheConfig().ttl(Duration.ofHours(1));
        MemcachedCacheManager fixed = MemcachedCacheManager.builder(client)
                .withCacheConfiguration("books", hourly)
                .initialCacheNames(Set.of("authors"))
                .disableCreateOnMissingCache()
                .build();

        assertThat(fixed.getCacheNames()).containsExactlyInAnyOrder("books", "authors");
        assertThat(fixed.getCache("other")).isNull();
        assertThat(fixed.getCacheConfigurations()).containsEntry("books", hourly)
                .containsEntry("authors", MemcachedCacheConfiguration.defaultCacheConfig());
        assertThat(manager.getCache("other")).as("created on demand by default").isNotNull();
        assertThat(manager.getCache("other")).isSameAs(manager.getCache("other"));
        assertThat(manager.getCacheNames()).contains("books", "other");
    }

    private static long delta(Map<String, String> before, Map<String, String> after, String stat) {
        return Long.parseLong(after.get(stat)) - Long.parseLong(before.get(stat));
    }
}
