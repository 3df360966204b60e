package dev.grizzlyboot.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The TTLs memcached really holds, read back with the meta command {@code mg <key> t}: jittered
 * TTLs fall in {@code [ttl*(1-j), ttl*(1+j)]} and spread over it; a TTL of 0 never expires.
 * The server reports the remaining seconds, so a value may read one second low.
 */
class TtlOnServerTest {


    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private MemcachedProcess server;
    private MemcachedClient client;

    @BeforeEach
    void setUp() {
        server = memcached.first();
        client = TestClients.connect(server.address());
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    @Test
    void jitteredTtlsFollowTheRangeAndSpreadOverIt() {
        List<Long> ttls = storedTtls(MemcachedCacheConfiguration.defaultCacheConfig().ttl(Duration.ofSeconds(100)).ttlJitter(0.2), 200);

        assertThat(ttls).allSatisfy(ttl -> assertThat(ttl).isBetween(79L, 120L));
        assertThat(ttls.stream().mapToLong(Long::longValue).min().orElseThrow()).as("lowest").isLessThanOrEqualTo(85);
        assertThat(ttls.stream().mapToLong(Long::longValue).max().orElseThrow()).as("highest").isGreaterThanOrEqualTo(115);
        assertThat(ttls.stream().distinct().count()).as("distinct TTLs").isGreaterThanOrEqualTo(20);
    }

    @Test
    void withoutJitterEveryEntryGetsTheTtl() {
        List<Long> ttls = storedTtls(MemcachedCacheConfiguration.defaultCacheConfig().ttl(Duration.ofSeconds(50)), 20);

        assertThat(ttls).allSatisfy(ttl -> assertThat(ttl).isBetween(49L, 50L));
    }

    @Test
    void ttlZeroMeansNoExpiryEvenWithJitter() {
        List<Long> ttls = storedTtls(MemcachedCacheConfiguration.defaultCacheConfig().ttlJitter(0.5), 20);

        assertThat(ttls).containsOnly(-1L);
    }

    /**
     * Not only {@code put}: every way an entry is written carries the cache's TTL, i.e. a value loaded by
     * {@code get(key, loader)} or {@code retrieve(key, loader)}, a {@code putIfAbsent} that adds, and a
     * {@code putIfAbsent} that replaces a cached {@code null} (read as absent by a cache without nulls).
     */
    @Test
    void everyKindOfWriteCarriesTheTtl() {
        MemcachedCacheConfiguration fiftySeconds = MemcachedCacheConfiguration.defaultCacheConfig().ttl(Duration.ofSeconds(50));
        String name = "ttl-" + System.nanoTime();
        MemcachedCache cache = (MemcachedCache) MemcachedCacheManager.builder(client)
                .cacheDefaults(fiftySeconds.cacheNullValues(false)).build().getCache(name);
        MemcachedCache allowingNulls = (MemcachedCache) MemcachedCacheManager.builder(client)
                .cacheDefaults(fiftySeconds).build().getCache(name);

        assertThat(cache.get("loaded", () -> "value")).isEqualTo("value");
        assertThat(cache.retrieve("retrieved", () -> CompletableFuture.completedFuture("value")).join()).isEqualTo("value");
        assertThat(cache.putIfAbsent("added", "value")).isNull();
        allowingNulls.put("was-null", null);
        assertThat(cache.putIfAbsent("was-null", "value")).isNull();
        assertThat(cache.get("was-null").get()).isEqualTo("value");

        for (String key : List.of("loaded", "retrieved", "added", "was-null")) {
            assertThat(server.remainingTtl(cache.memcachedKey(key))).as(key).isBetween(49L, 50L);
        }
    }

    private List<Long> storedTtls(MemcachedCacheConfiguration configuration, int entries) {
        MemcachedCache cache = (MemcachedCache) MemcachedCacheManager.builder(client).cacheDefaults(configuration).build()
                .getCache("ttl-" + System.nanoTime());
        List<Long> ttls = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            cache.put("key-" + i, "value");
            ttls.add(server.remainingTtl(cache.memcachedKey("key-" + i)));
        }
        return ttls;
    }
}
