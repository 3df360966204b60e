package dev.grizzlyboot.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.cache.Cache;

/**
 * Loading through the cache: {@code get(key, Callable)} (what {@code @Cacheable(sync = true)}
 * uses) calls the loader once for concurrent misses of one key while other keys proceed, and the
 * {@code CompletableFuture} based {@code retrieve} methods.
 */
class CacheLoadingTest {

    private static final int CALLERS = 8;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private MemcachedClient client;
    private Cache cache;
    private ExecutorService callers;

    @BeforeEach
    void setUp() {
        memcached.first().flushAll();
        client = TestClients.connect(memcached.first().address());
        cache = MemcachedCacheManager.builder(client).build().getCache("loading");
        callers = Executors.newFixedThreadPool(CALLERS);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        callers.shutdownNow();
        assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        client.close();
    }

    @Test
    void concurrentMissesOfOneKeyCallTheLoaderOnceWhileOtherKeysProceed() throws Exception {
        AtomicInteger loaderCalls = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        Callable<String> slowLoader = () -> {
            loaderCalls.incrementAndGet();
            assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
            return "loaded";
        };
        List<Thread> threads = new ArrayList<>();
        List<Future<String>> results = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            results.add(callers.submit(() -> {
                synchronized (threads) {
                    threads.add(Thread.currentThread());
                }
                return cache.get("hot", slowLoader);
            }));
        }
        // Every caller is parked: one in the loader, the others waiting for its result.
        await().atMost(Duration.ofSeconds(10)).until(() -> loaderCalls.get() >= 1 && parked(threads));

        assertThat(cache.get("other", () -> "not blocked")).as("a different key does not wait").isEqualTo("not blocked");
        release.countDown();

        for (Future<String> result : results) {
            assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("loaded");
        }
        assertThat(loaderCalls).hasValue(1);
        assertThat(cache.get("hot").get()).isEqualTo("loaded");
    }

    @Test
    void aFailingLoaderIsReportedToEveryCallerAndNothingIsCached() {
        Callable<String> failing = () -> {
            throw new IOException("database down");
        };

        assertThatThrownBy(() -> cache.get("k", failing)).isInstanceOf(Cache.ValueRetrievalException.class)
                .cause().isInstanceOf(IOException.class).hasMessage("database down");
        assertThat(cache.get("k")).isNull();
        assertThat(cache.get("k", () -> "recovered")).isEqualTo("recovered");
    }

    /** As Spring's {@code CaffeineCache}: an {@code Error} is not wrapped, and the key's load does not stay stuck. */
    @Test
    void aLoaderThrowingAnErrorRethrowsItUnwrappedAndTheKeyStaysUsable() {
        Callable<String> failing = () -> {
            throw new StackOverflowError("deep recursion");
        };

        assertThatThrownBy(() -> cache.get("e", failing)).isExactlyInstanceOf(StackOverflowError.class)
                .hasMessage("deep recursion");
        assertThat(cache.get("e")).isNull();
        assertThat(cache.get("e", () -> "recovered")).isEqualTo("recovered");
    }

    @Test
    void aLoaderAskingForItsOwnKeyFailsInsteadOfWaitingForItself() {
        Callable<String> recursive = new Callable<>() {
            @Override
            public String call() {
                return cache.get("self", this);
            }
        };

        assertThatThrownBy(() -> cache.get("self", recursive)).isInstanceOf(Cache.ValueRetrievalException.class)
                .rootCause().isInstanceOf(IllegalStateException.class).hasMessageContaining("same key");
        assertThat(cache.get("self", () -> "fine")).as("the key is usable afterwards").isEqualTo("fine");
    }

    @Test
    void retrieveAnswersMissesHitsAndCachedNulls() throws Exception {
        assertThat(cache.retrieve("k").get(5, TimeUnit.SECONDS)).as("miss").isNull();

        cache.put("k", "v");
        cache.put("nothing", null);

        assertThat(cache.retrieve("k").get(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(Cache.ValueWrapper.class,
                wrapper -> assertThat(wrapper.get()).isEqualTo("v"));
        assertThat(cache.retrieve("nothing").get(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(Cache.ValueWrapper.class,
                wrapper -> assertThat(wrapper.get()).isNull());
    }

    @Test
    void retrieveWithLoaderLoadsOnceAndCaches() throws Exception {
        AtomicInteger loaderCalls = new AtomicInteger();
        CompletableFuture<String> pending = new CompletableFuture<>();

        CompletableFuture<String> first = cache.retrieve("k", () -> {
            loaderCalls.incrementAndGet();
            return pending;
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> loaderCalls.get() == 1);
        CompletableFuture<String> second = cache.retrieve("k", () -> {
            loaderCalls.incrementAndGet();
            return CompletableFuture.completedFuture("second loader");
        });
        // Time for the second call to reach a loader if it were going to (it would not wait for the first).
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> loaderCalls.get() == 1);
        pending.complete("loaded");

        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("loaded");
        assertThat(second.get(5, TimeUnit.SECONDS)).as("joined the running load").isEqualTo("loaded");
        assertThat(loaderCalls).hasValue(1);
        assertThat(cache.get("k").get()).as("cached").isEqualTo("loaded");
        assertThat(cache.retrieve("k", () -> CompletableFuture.completedFuture("not called")).get(5, TimeUnit.SECONDS))
                .isEqualTo("loaded");
    }

    @Test
    void retrieveWithAFailingLoaderFailsWithTheLoadersException() {
        CompletableFuture<String> result = cache.retrieve("k",
                () -> CompletableFuture.failedFuture(new IllegalStateException("backend down")));

        assertThat(result).failsWithin(Duration.ofSeconds(5)).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingCause().isInstanceOf(IllegalStateException.class).withMessage("backend down");
        assertThat(cache.get("k")).isNull();
    }

    private static boolean parked(List<Thread> threads) {
        synchronized (threads) {
            return threads.size() == CALLERS && threads.stream().allMatch(thread ->
                    thread.getState() == Thread.State.WAITING || thread.getState() == Thread.State.TIMED_WAITING);
        }
    }
}
