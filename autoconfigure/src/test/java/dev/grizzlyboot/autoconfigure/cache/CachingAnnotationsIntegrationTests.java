package dev.grizzlyboot.autoconfigure.cache;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.grizzlyboot.cache.MemcachedCacheManager;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Cacheable}, {@code @CachePut} and {@code @CacheEvict} through the full auto-configuration
 * against a real memcached, including a second application sharing it and memcached dying mid-run.
 */
@SpringBootTest(classes = CachingAnnotationsIntegrationTests.App.class)
class CachingAnnotationsIntegrationTests {

    private static final Pattern METADUMP_KEY = Pattern.compile("^key=(\\S+) ");
    private static final Pattern ENTRY_KEY = Pattern.compile("^it:(\\w+):\\d+:(ttl|author)-\\d+$");

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @DynamicPropertySource
    static void memcachedProperties(DynamicPropertyRegistry registry) {
        appProperties().forEach(property -> {
            int equals = property.indexOf('=');
            registry.add(property.substring(0, equals), () -> property.substring(equals + 1));
        });
    }

    /** The application's configuration, shared by the test context and the second application. */
    private static List<String> appProperties() {
        return List.of("grizzly.memcached.servers=" + memcached.addressList(),
                "grizzly.memcached.operation-timeout=200ms",
                "grizzly.memcached.pool.reconnect-backoff=20ms",
                "grizzly.memcached.pool.max-reconnect-backoff=100ms",
                "grizzly.memcached.transcoder.allowed-classes=dev.grizzlyboot.autoconfigure.cache.*",
                "grizzly.memcached.cache.key-prefix=it",
                "grizzly.memcached.cache.default-ttl=10m",
                "grizzly.memcached.cache.caches.books.ttl=1h",
                "grizzly.memcached.cache.caches.books.ttl-jitter=0.2");
    }

    @Autowired
    Library library;

    @Autowired
    CacheManager cacheManager;

    @Autowired
    MemcachedClient client;

    @BeforeEach
    void startEmpty() {
        memcached.servers().flushAll();
        // A server killed or paused by an earlier test is back only once the client's health check has seen it.
        await().atMost(Duration.ofSeconds(10)).until(() -> client.serverStates().stream().noneMatch(ServerState::failed));
        // The flush (or a restarted server) took the caches' generation counters too. A cache's first
        // re-read after that, up to the 1 s refresh interval later and so at any point of a test,
        // would re-create its counter at a newer generation and hide what the test had written
        // before (one CI run failed so). A clear re-creates the counters now.
        cacheManager.getCacheNames().forEach(name -> cacheManager.getCache(name).clear());
        library.resetLoads();
    }

    @Test
    void theAutoConfiguredManagerServesTheAnnotations() {
        assertThat(cacheManager).isInstanceOf(MemcachedCacheManager.class);
        assertThat(((MemcachedCacheManager) cacheManager).getCacheConfigurations().get("books").getTtl())
                .isEqualTo(Duration.ofHours(1));
    }

    @Test
    void cacheableLoadsOnceThenServesFromMemcached() {
        assertThat(library.find("1")).isEqualTo(new Book("1", "title 1"));
        assertThat(library.find("1")).isEqualTo(new Book("1", "title 1"));
        assertThat(library.find("1")).isEqualTo(new Book("1", "title 1"));
        assertThat(library.loads()).isEqualTo(1);
        assertThat(Long.parseLong(memcached.first().stats().get("curr_items"))).isPositive();
    }

    @Test
    void longAndNonAsciiKeysAreCachedToo() {
        String longKey = "isbn-".repeat(200);
        String nonAscii = "Grüße, 本 and a space";
        for (int i = 0; i < 3; i++) {
            assertThat(library.find(longKey).isbn()).isEqualTo(longKey);
            assertThat(library.find(nonAscii).isbn()).isEqualTo(nonAscii);
        }
        assertThat(library.loads()).isEqualTo(2);
    }

    @Test
    void ttlsOnTheServerFollowTheConfiguredCaches() {
        for (int i = 0; i < 40; i++) {
            library.find("ttl-" + i);
            library.author("author-" + i);
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Map<String, List<Long>> remaining = remainingTtlsByCache();
            // books: ttl 1h, jitter 0.2 -> [2880 s, 4320 s]; the server may report a second less.
            assertThat(remaining.get("books")).hasSize(40).allSatisfy(ttl -> assertThat(ttl).isBetween(2877L, 4320L));
            long spread = Collections.max(remaining.get("books")) - Collections.min(remaining.get("books"));
            assertThat(spread).as("jitter spreads the expiries").isGreaterThan(300);
            // authors: the default, 10 min without jitter.
            assertThat(remaining.get("authors")).hasSize(40).allSatisfy(ttl -> assertThat(ttl).isBetween(597L, 600L));
        });
    }

    @Test
    void cachePutReplacesAndCacheEvictRemoves() {
        library.find("2");
        assertThat(library.rename("2", "renamed")).isEqualTo(new Book("2", "renamed"));
        assertThat(library.find("2")).isEqualTo(new Book("2", "renamed"));
        assertThat(library.loads()).isEqualTo(1);

        library.remove("2");
        assertThat(library.find("2")).isEqualTo(new Book("2", "title 2"));
        assertThat(library.loads()).isEqualTo(2);

        library.find("3");
        library.removeAll();
        library.find("3");
        library.find("2");
        assertThat(library.loads()).isEqualTo(5);
    }

    @Test
    void aSecondApplicationSharingMemcachedSeesEntriesAndClears() {
        library.find("4");
        try (ConfigurableApplicationContext other = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties(appProperties().toArray(String[]::new)).run()) {
            Library otherLibrary = other.getBean(Library.class);
            assertThat(otherLibrary.find("4")).isEqualTo(new Book("4", "title 4"));
            assertThat(otherLibrary.loads()).as("served from the entry the first application stored").isEqualTo(0);

            otherLibrary.removeAll();
            // The first application notices the other's clear within the generation refresh interval (1 s).
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                int before = library.loads();
                library.find("4");
                assertThat(library.loads()).isEqualTo(before + 1);
            });
        }
    }

    @Test
    void requestsStillSucceedThroughTheMethodWhileMemcachedIsDown() {
        MemcachedProcess server = memcached.first();
        library.find("5");
        server.kill();
        for (int i = 0; i < 5; i++) {
            assertThat(library.find("5")).isEqualTo(new Book("5", "title 5"));
        }
        assertThat(library.loads()).as("every call went to the method").isEqualTo(6);
        assertThat(library.rename("5", "while down")).isEqualTo(new Book("5", "while down"));
        library.remove("5");

        server.restart();
        // Once the client has reconnected, caching works again: a load is followed by hits.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            library.find("6");
            int loads = library.loads();
            library.find("6");
            assertThat(library.loads()).isEqualTo(loads);
        });
    }

    @Test
    void requestsStillSucceedWhileMemcachedHangs() {
        MemcachedProcess server = memcached.first();
        library.find("7");
        server.pause();
        try {
            // SIGSTOP takes effect asynchronously: call until a call misses and goes to the method.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                long start = System.nanoTime();
                assertThat(library.find("7")).isEqualTo(new Book("7", "title 7"));
                // Bounded by the operation timeout (200 ms) on the read and on the write-back, not hanging.
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
                assertThat(library.loads()).isEqualTo(2);
            });
        } finally {
            server.resume();
        }
    }

    /**
     * Remaining seconds of the entries the TTL test wrote, by cache name: the keys (memcached keys are
     * {@code it:cache:generation:key}) from {@code lru_crawler metadump}, their TTLs from {@code mg <key> t}.
     */
    private static Map<String, List<Long>> remainingTtlsByCache() {
        Map<String, List<Long>> remaining = new HashMap<>();
        for (String line : memcached.first().textCommand("lru_crawler metadump all")) {
            Matcher item = METADUMP_KEY.matcher(line);
            if (item.find()) {
                String memcachedKey = URLDecoder.decode(item.group(1), StandardCharsets.UTF_8);
                Matcher key = ENTRY_KEY.matcher(memcachedKey);
                if (key.matches()) {
                    remaining.computeIfAbsent(key.group(1), cache -> new ArrayList<>())
                            .add(memcached.first().remainingTtl(memcachedKey));
                }
            }
        }
        return remaining;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableCaching
    static class App {

        @Bean
        Library library() {
            return new Library();
        }
    }

    /** A repository whose every load is counted, so the tests see when the method really ran. */
    static class Library {

        private final AtomicInteger loads = new AtomicInteger();

        /** How often a book was really loaded (a method, because callers hold a caching proxy). */
        public int loads() {
            return loads.get();
        }

        public void resetLoads() {
            loads.set(0);
        }

        @Cacheable("books")
        public Book find(String isbn) {
            loads.incrementAndGet();
            return new Book(isbn, "title " + isbn);
        }

        @Cacheable("authors")
        public String author(String name) {
            return name.toUpperCase(Locale.ROOT);
        }

        @CachePut(cacheNames = "books", key = "#isbn")
        public Book rename(String isbn, String title) {
            return new Book(isbn, title);
        }

        @CacheEvict("books")
        public void remove(String isbn) {
        }

        @CacheEvict(cacheNames = "books", allEntries = true)
        public void removeAll() {
        }
    }
}
