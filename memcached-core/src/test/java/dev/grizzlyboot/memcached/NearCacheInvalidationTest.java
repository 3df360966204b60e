package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The near cache drops its copy on the writes {@link NearCacheTest} does not make (a cas, a
 * flushAll), so this client reads its own writes at once, and holds no more than its maximum of
 * entries.
 */
class NearCacheInvalidationTest {

    /** Far longer than the test: a copy that is not dropped is still served when the test reads. */
    private static final Duration NEAR_TTL = Duration.ofMinutes(5);
    private static final long MAX_ENTRIES = 20;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private MemcachedClient near;

    @BeforeEach
    void client() {
        memcached.servers().flushAll();
        near = MemcachedClient.builder().servers(memcached.addresses()).nearCache(NEAR_TTL, MAX_ENTRIES).build();
    }

    @AfterEach
    void close() {
        near.close();
    }

    @Test
    void aCasDropsTheLocalCopy() {
        BlockingMemcachedClient blocking = near.blocking();
        blocking.set("cas-key", "before", Duration.ZERO);
        assertThat(blocking.get("cas-key")).isEqualTo("before");
        CasValue<Object> read = blocking.gets("cas-key");
        assertThat(blocking.cas("cas-key", "after", read.cas(), Duration.ZERO)).isEqualTo(CasResult.STORED);
        assertThat(blocking.get("cas-key")).as("read after own cas").isEqualTo("after");
    }

    @Test
    void aFlushAllDropsEveryLocalCopy() {
        BlockingMemcachedClient blocking = near.blocking();
        blocking.set("flushed", "value", Duration.ZERO);
        assertThat(blocking.get("flushed")).isEqualTo("value");
        blocking.flushAll();
        assertThat(blocking.get("flushed")).as("read after own flushAll").isNull();
    }

    /**
     * memcached empties itself only once a delayed flush's delay is over, so a value read during
     * the delay is still the server's; a copy of it must not outlive the flush, or this client
     * reads a value its own flush removed for the rest of the near cache's TTL.
     */
    @Test
    void aDelayedFlushAllLeavesNoCopyOfWhatWasReadDuringTheDelay() {
        BlockingMemcachedClient blocking = near.blocking();
        blocking.set("flushed-later", "value", Duration.ZERO);
        near.flushAll(Duration.ofSeconds(2)).join();
        assertThat(blocking.get("flushed-later")).as("read during the delay").isEqualTo("value");
        await().atMost(Duration.ofSeconds(10)).until(() -> memcached.first().textCommand("get flushed-later").size() == 1);
        assertThat(blocking.get("flushed-later")).as("read after own delayed flush").isNull();
    }

    @Test
    void theLocalCopiesStayWithinTheMaximum() {
        BlockingMemcachedClient blocking = near.blocking();
        for (int i = 0; i < MAX_ENTRIES * 10; i++) {
            blocking.set("bounded-" + i, "v" + i, Duration.ZERO);
            assertThat(blocking.get("bounded-" + i)).isEqualTo("v" + i);
        }
        // Caffeine evicts in the background shortly after the writes that overflow it.
        await().atMost(Duration.ofSeconds(10)).until(() -> near.nearCacheSize() <= MAX_ENTRIES);
    }
}
