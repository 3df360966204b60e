package dev.grizzlyboot.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.cache.Cache;

/**
 * Only the memcached holding a cache's generation counter is down (killed; the client does not fail
 * over): a re-read of the generation fails, and the cache keeps its last known generation, so entries
 * on the servers still up stay readable and writable (docs/cache.md, "Clear, and how fast other
 * instances see it"), instead of every operation of that cache failing with the counter's server.
 */
class GenerationServerDownTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    private MemcachedClient client;

    @BeforeEach
    void setUp() {
        client = MemcachedClient.builder().servers(memcached.addressList()).failover(false)
                .operationTimeout(Duration.ofMillis(500)).connectTimeout(Duration.ofMillis(500))
                .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200)).build();
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    @Test
    void entriesOnTheServersStillUpStayReadableWithTheLastKnownGeneration() {
        // Re-read the generation on every operation, so that each one meets the dead server.
        Cache cache = MemcachedCacheManager.builder(client).generationRefreshInterval(Duration.ZERO).build().getCache("books");
        String counterServer = client.serverFor(new CacheKeys("", "books").generationKey()).toString();
        MemcachedProcess holder = memcached.addresses().get(0).equals(counterServer) ? memcached.get(0) : memcached.get(1);
        String[] keys = keysAwayFrom((MemcachedCache) cache, counterServer, 2);
        cache.put(keys[0], "Dune");
        assertThat(cache.get(keys[0]).get()).isEqualTo("Dune");

        holder.kill();
        try {
            assertThat(cache.get(keys[0])).as("read with the last known generation").isNotNull()
                    .extracting(Cache.ValueWrapper::get).isEqualTo("Dune");
            cache.put(keys[1], "Emma");
            assertThat(cache.get(keys[1])).as("written with the last known generation").isNotNull()
                    .extracting(Cache.ValueWrapper::get).isEqualTo("Emma");
        } finally {
            holder.restart();
        }
    }

    /** {@code count} keys whose entries live on another server than {@code server}. */
    private String[] keysAwayFrom(MemcachedCache cache, String server, int count) {
        String[] keys = new String[count];
        int found = 0;
        for (int i = 0; found < count; i++) {
            String key = "isbn-" + i;
            if (!client.serverFor(cache.memcachedKey(key)).toString().equals(server)) {
                keys[found++] = key;
            }
        }
        return keys;
    }
}
