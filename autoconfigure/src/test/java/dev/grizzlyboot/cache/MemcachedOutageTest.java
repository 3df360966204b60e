package dev.grizzlyboot.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.cache.Cache;

/**
 * memcached killed (SIGKILL) mid-run: by default every cache operation degrades (reads miss, so
 * loaders run; writes are skipped) without throwing, and the cache works again once memcached is
 * back; with {@code propagateErrors(true)} the client's typed exceptions come through. A read from
 * a stopped (SIGSTOP) memcached waits in the client's blocking facade and times out as a miss.
 */
class MemcachedOutageTest {

    private static final Duration TIMEOUT = Duration.ofMillis(300);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private MemcachedProcess server;
    private MemcachedClient client;

    @BeforeEach
    void setUp() {
        server = memcached.first();
        client = MemcachedClient.builder().servers(server.address())
                .operationTimeout(TIMEOUT).connectTimeout(TIMEOUT)
                .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200)).build();
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    @Test
    void byDefaultAnOutageDegradesToMissesAndSkippedWrites() throws Exception {
        MemcachedCacheManager manager = MemcachedCacheManager.builder(client).build();
        Cache cache = manager.getCache("books");
        storeWhileUp(cache, "a", "1");

        server.kill();

        assertThat(cache.get("a")).as("a read is a miss").isNull();
        cache.put("b", "2");
        cache.evict("a");
        cache.clear();
        assertThat(cache.putIfAbsent("c", "3")).isNull();
        assertThat(cache.evictIfPresent("a")).isFalse();
        assertThat(cache.get("d", () -> "from the method")).isEqualTo("from the method");
        assertThat(cache.retrieve("a").get(5, TimeUnit.SECONDS)).isNull();
        assertThat(cache.retrieve("e", () -> CompletableFuture.completedFuture("from the async method"))
                .get(5, TimeUnit.SECONDS)).isEqualTo("from the async method");
        Cache neverUsed = manager.getCache("never-used");
        assertThat(neverUsed.get("x")).as("no generation known yet: still a miss").isNull();
        neverUsed.put("x", "y");

        server.restart();
        storeWhileUp(cache, "a", "back");
    }

    @Test
    void withPropagateErrorsTheClientsExceptionsComeThrough() {
        Cache cache = MemcachedCacheManager.builder(client).propagateErrors(true).build().getCache("books");
        storeWhileUp(cache, "a", "1");

        server.kill();

        assertThatThrownBy(() -> cache.get("a")).isInstanceOf(MemcachedException.class);
        assertThatThrownBy(() -> cache.put("b", "2")).isInstanceOf(MemcachedException.class);
        assertThatThrownBy(() -> cache.evict("a")).isInstanceOf(MemcachedException.class);
        assertThatThrownBy(cache::clear).isInstanceOf(MemcachedException.class);
        assertThatThrownBy(() -> cache.putIfAbsent("c", "3")).isInstanceOf(MemcachedException.class);
        assertThatThrownBy(() -> cache.get("d", () -> "from the method")).isInstanceOf(MemcachedException.class);
        assertThat(cache.retrieve("a")).failsWithin(Duration.ofSeconds(5))
                .withThrowableOfType(ExecutionException.class).havingCause().isInstanceOf(MemcachedException.class);
    }

    @Test
    void aReadWaitsAsTheClientsBlockingCallsDo() throws Exception {
        try (MemcachedClient patient = TestClients.connect(server.address())) {
            Cache cache = MemcachedCacheManager.builder(patient).build().getCache("books");
            storeWhileUp(cache, "a", "1");
            server.pause();
            CompletableFuture<Cache.ValueWrapper> read = new CompletableFuture<>();
            try {
                Thread reader = new Thread(() -> read.complete(cache.get("a")), "cache-reader");
                reader.start();
                // The client's blocking facade is where a lone caller spins (CallerSpinClientTest); a
                // plain future.get() would wait in CompletableFuture alone.
                await().atMost(Duration.ofSeconds(4)).pollInterval(Duration.ofMillis(10))
                        .until(() -> waitsIn(reader, "dev.grizzlyboot.memcached.BlockingMemcachedClient"));
            } finally {
                server.resume();
            }
            assertThat(read.get(10, TimeUnit.SECONDS)).as("answered once memcached runs again").isNotNull()
                    .extracting(Cache.ValueWrapper::get).isEqualTo("1");
        }
    }

    private static boolean waitsIn(Thread thread, String className) {
        for (StackTraceElement frame : thread.getStackTrace()) {
            if (frame.getClassName().equals(className)) {
                return true;
            }
        }
        return false;
    }

    /** Stores and reads back; retried while the short timeouts trip on a loaded machine or a restarting server. */
    private static void storeWhileUp(Cache cache, String key, String value) {
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            cache.put(key, value);
            Cache.ValueWrapper read = cache.get(key);
            return read != null && value.equals(read.get());
        });
    }
}
