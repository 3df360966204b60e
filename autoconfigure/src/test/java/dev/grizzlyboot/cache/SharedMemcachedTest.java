package dev.grizzlyboot.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cache.Cache;

/**
 * Two "application instances" (each its own client and cache manager) sharing one memcached see
 * each other's entries at once and each other's clears within the generation refresh interval.
 */
class SharedMemcachedTest {

    private static final Logger log = LoggerFactory.getLogger(SharedMemcachedTest.class);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private MemcachedProcess server;
    private MemcachedClient clientA;
    private MemcachedClient clientB;
    private Cache booksA;
    private Cache booksB;

    @BeforeEach
    void setUp() {
        server = memcached.first();
        server.flushAll();
        clientA = TestClients.connect(server.address());
        clientB = TestClients.connect(server.address());
        booksA = MemcachedCacheManager.builder(clientA).build().getCache("books");
        booksB = MemcachedCacheManager.builder(clientB).build().getCache("books");
    }

    @AfterEach
    void tearDown() {
        clientA.close();
        clientB.close();
    }

    @Test
    void entriesWrittenByOneInstanceAreReadByTheOther() {
        booksA.put("isbn-1", "Dune");
        assertThat(booksB.get("isbn-1").get()).isEqualTo("Dune");

        booksB.put("isbn-1", "Dune Messiah");
        assertThat(booksA.get("isbn-1").get()).isEqualTo("Dune Messiah");

        booksB.evict("isbn-1");
        assertThat(booksA.get("isbn-1")).isNull();
    }

    @Test
    void aClearByOneInstanceReachesTheOtherWithinTheRefreshInterval() {
        booksA.put("a", "1");
        booksA.put("b", "2");
        assertThat(booksB.get("a").get()).as("B has read the generation").isEqualTo("1");

        booksA.clear();
        assertThat(booksA.get("a")).as("the clearing instance sees it at once").isNull();

        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(5)).until(() -> booksB.get("a") == null && booksB.get("b") == null);
        long seenAfterMillis = (System.nanoTime() - start) / 1_000_000;
        // The default interval is 1 s; the deadline above is only generous for a loaded machine.
        assertThat(seenAfterMillis).as("ms until B saw the clear").isLessThan(5_000);

        booksB.put("a", "after-clear");
        assertThat(booksA.get("a").get()).as("both use the new generation").isEqualTo("after-clear");
    }

    /**
     * A clear that is an instance's very first operation on a cache (it knows no generation yet, for
     * example a {@code @CacheEvict(allEntries = true)} right after start-up) still moves the counter on:
     * the other instance's entries are gone for both at once and for the other within its interval.
     */
    @Test
    void aClearAsAnInstancesFirstOperationStillHidesTheOthersEntries() {
        booksA.put("a", "1");
        assertThat(booksA.get("a").get()).isEqualTo("1");

        booksB.clear();
        assertThat(booksB.get("a")).as("the clearing instance sees its clear at once").isNull();
        await().atMost(Duration.ofSeconds(5)).until(() -> booksA.get("a") == null);
    }

    @Test
    void keyPrefixesKeepApplicationsApart() {
        Cache otherApp = MemcachedCacheManager.builder(clientB)
                .cacheDefaults(MemcachedCacheConfiguration.defaultCacheConfig().keyPrefix("other-app"))
                .build().getCache("books");
        booksA.put("isbn-1", "Dune");
        otherApp.put("isbn-1", "Neuromancer");

        assertThat(booksA.get("isbn-1").get()).isEqualTo("Dune");
        assertThat(otherApp.get("isbn-1").get()).isEqualTo("Neuromancer");
        otherApp.clear();
        assertThat(booksA.get("isbn-1").get()).isEqualTo("Dune");
    }

    @Test
    void aCounterThatWentBackIsRaisedAgainAndClearsStillWork() {
        MemcachedCache fastA = (MemcachedCache) MemcachedCacheManager.builder(clientA)
                .generationRefreshInterval(Duration.ofMillis(100)).build().getCache("back");
        fastA.put("old", "stale");
        fastA.clear();
        fastA.put("k", "current");
        String currentKey = fastA.memcachedKey("k");
        long current = generationOf(currentKey);

        // As if the server holding the counter had failed over and come back with its old counter.
        assertThat(server.textCommand("set back:generation 0 0 1\r\n5")).containsExactly("STORED");

        // The generation is re-read by the first operation after the refresh interval.
        await().atMost(Duration.ofSeconds(5)).until(() -> fastA.get("k") != null && counter("back:generation") >= current);
        assertThat(fastA.get("k").get()).as("the generation did not move back").isEqualTo("current");
        assertThat(fastA.get("old")).as("entries from before the clear stay hidden").isNull();
        Cache freshB = MemcachedCacheManager.builder(clientB).build().getCache("back");
        assertThat(freshB.get("k").get()).as("a new instance agrees").isEqualTo("current");

        // The counter is behind the local generation again: a clear must still move past both.
        assertThat(server.textCommand("set back:generation 0 0 1\r\n5")).containsExactly("STORED");
        fastA.clear();
        assertThat(fastA.get("k")).isNull();
        assertThat(counter("back:generation")).isGreaterThan(current);
    }

    @Test
    void aLostGenerationCounterNeverBringsOldEntriesBack() {
        MemcachedCache fast = (MemcachedCache) MemcachedCacheManager.builder(clientA)
                .generationRefreshInterval(Duration.ofMillis(100)).build().getCache("lost");
        fast.put("before-clear", "stale");
        fast.clear();
        fast.put("after-clear", "current");
        String staleKey = fast.memcachedKey("after-clear");

        // As if memcached had evicted the counter (or restarted): it is created again from the clock.
        assertThat(server.textCommand("delete lost:generation")).containsExactly("DELETED");

        await().atMost(Duration.ofSeconds(5)).until(() -> !fast.memcachedKey("after-clear").equals(staleKey));
        assertThat(fast.get("before-clear")).isNull();
        assertThat(fast.get("after-clear")).isNull();
    }

    /**
     * Clears faster than one a millisecond: each adds one to the counter, which was created from
     * the clock. Counted in milliseconds the counter ran ahead of the clock, and a counter lost
     * then was created again at a generation already used, whose entries another instance read.
     */
    @Test
    void aCounterLostAfterABurstOfClearsStillComesBackAboveEveryGenerationUsed() {
        MemcachedCache clearing = (MemcachedCache) MemcachedCacheManager.builder(clientA).build().getCache("burst");
        // Until the clears are well ahead of the milliseconds they took (or for 10 s on a machine too slow for that).
        long start = System.currentTimeMillis();
        int clears = 0;
        while (clears < System.currentTimeMillis() - start + 1_000 && System.currentTimeMillis() - start < 10_000) {
            clearing.clear();
            clears++;
        }
        log.info("{} clears in {} ms", clears, System.currentTimeMillis() - start);
        clearing.put("k", "written after the burst");
        long lastGeneration = generationOf(clearing.memcachedKey("k"));

        assertThat(server.textCommand("delete burst:generation")).containsExactly("DELETED");

        MemcachedCache fresh = (MemcachedCache) MemcachedCacheManager.builder(clientB).build().getCache("burst");
        assertThat(generationOf(fresh.memcachedKey("k"))).as("the re-created generation").isGreaterThan(lastGeneration);
        assertThat(fresh.get("k")).isNull();
    }

    private static long generationOf(String memcachedKey) {
        return Long.parseLong(memcachedKey.split(":")[1]);
    }

    private long counter(String key) {
        List<String> reply = server.textCommand("mg " + key + " v");
        assertThat(reply).hasSize(2);
        return Long.parseLong(reply.get(1));
    }
}
