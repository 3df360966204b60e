package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Many requests in flight on one connection are matched to the right callers, under every I/O strategy. */
class PipeliningTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void thousandsOfConcurrentRequestsOnOneConnectionGetTheirOwnAnswers(IoStrategy strategy) throws Exception {
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addressList())
                .connectionsPerServer(1, 1).ioStrategy(strategy).operationTimeout(Duration.ofSeconds(10)).build()) {
            String prefix = strategy.name() + "-";
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 0; i < 5_000; i++) {
                writes.add(client.set(prefix + i, "value-" + i, Duration.ZERO));
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();

            ExecutorService callers = Executors.newFixedThreadPool(16);
            try {
                List<Future<List<String>>> mismatches = new ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    int thread = t;
                    mismatches.add(callers.submit(() -> {
                        List<String> wrong = new ArrayList<>();
                        List<CompletableFuture<Object>> reads = new ArrayList<>();
                        for (int i = thread; i < 5_000; i += 16) {
                            reads.add(client.get(prefix + i));
                        }
                        int i = thread;
                        for (CompletableFuture<Object> read : reads) {
                            if (!("value-" + i).equals(read.join())) {
                                wrong.add(prefix + i + " -> " + read.join());
                            }
                            i += 16;
                        }
                        return wrong;
                    }));
                }
                for (Future<List<String>> result : mismatches) {
                    assertThat(result.get()).isEmpty();
                }
            } finally {
                callers.shutdownNow();
            }
            assertThat(client.blocking().stats().values().iterator().next().get("curr_connections")).isNotNull();
        }
    }

    @Test
    void callsThatTimeOutBeforeTheyAreWrittenLeaveNothingPending() {
        // Shorter than the 100 ms after which a stalled connection's queue is written anyway.
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addressList())
                .connectionsPerServer(1, 1).operationTimeout(Duration.ofMillis(50)).failureThreshold(Integer.MAX_VALUE).build()) {
            memcached.first().textCommand("set queued 0 0 1\r\nQ");
            // Connected and answering before the pause; with so short a timeout a loaded machine may need a retry.
            awaitRead(client, "queued", "Q");
            List<CompletableFuture<Object>> calls = new ArrayList<>();
            memcached.first().pause();
            try {
                // The first is written and waits for its answer; the rest time out queued behind it.
                for (int i = 0; i < 5; i++) {
                    calls.add(client.get("queued"));
                }
                for (CompletableFuture<Object> call : calls) {
                    assertThatThrownBy(call::join).cause().isInstanceOf(MemcachedTimeoutException.class);
                }
            } finally {
                memcached.first().resume();
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> client.serverDetails().get(0).pending() == 0);
            awaitRead(client, "queued", "Q");
        }
    }

    @Test
    void aLateAnswerNeverCompletesSomeoneElsesRequest() {
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addressList())
                .connectionsPerServer(1, 1).operationTimeout(Duration.ofMillis(300)).build()) {
            client.blocking().set("late-a", "A", Duration.ZERO);
            client.blocking().set("late-b", "B", Duration.ZERO);
            memcached.first().pause();
            CompletableFuture<Object> timedOut = client.get("late-a");
            assertThatThrownBy(timedOut::join).isInstanceOf(CompletionException.class).cause()
                    .isInstanceOf(MemcachedTimeoutException.class).hasMessageContaining("late-a");
            memcached.first().resume();
            // The answer for late-a arrives now, on the same connection, before the one for late-b.
            assertThat(client.blocking().get("late-b")).isEqualTo("B");
            assertThat(client.blocking().get("late-a")).isEqualTo("A");
        }
    }

    private static void awaitRead(MemcachedClient client, String key, Object value) {
        await().atMost(Duration.ofSeconds(5)).ignoreExceptionsInstanceOf(MemcachedTimeoutException.class)
                .until(() -> value.equals(client.blocking().get(key)));
    }
}
