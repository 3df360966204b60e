package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The pool grows under pipelined load up to its maximum and shrinks back to its minimum when idle. */
class ConnectionPoolTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void growsUnderLoadAndEvictsIdleConnectionsDownToTheMinimum() {
        int baseline = connectionsOnServer();
        // Idle long enough that the surplus connections are still open when the burst's end is counted.
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addressList())
                .connectionsPerServer(1, 3).pipelineDepth(1).idleTimeout(Duration.ofSeconds(1)).build()) {
            client.blocking().noop();
            assertThat(connectionsOnServer()).isEqualTo(baseline + 1);

            // A paused server answers nothing, so every request stays pending and the pool must grow to its maximum.
            memcached.first().pause();
            List<CompletableFuture<Void>> burst = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                burst.add(client.set("burst-" + i, "v", Duration.ZERO));
            }
            memcached.first().resume();
            CompletableFuture.allOf(burst.toArray(CompletableFuture[]::new)).join();
            assertThat(connectionsOnServer()).isEqualTo(baseline + 3);

            await().atMost(Duration.ofSeconds(5)).until(() -> connectionsOnServer() == baseline + 1);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> connectionsOnServer() == baseline);
    }

    @Test
    void connectsToAnUnreachableServerFailFastDuringBackoff() {
        try (MemcachedClient client = MemcachedClient.builder().servers("127.0.0.1:1")
                .operationTimeout(Duration.ofSeconds(5)).reconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(2)).build()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.blocking().get("k"))
                    .isInstanceOf(MemcachedConnectionException.class).hasMessageContaining("127.0.0.1:1");
            assertThatThrownBy(() -> client.blocking().get("k"))
                    .isInstanceOf(MemcachedConnectionException.class).hasMessageContaining("next connect attempt");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        }
    }

    /**
     * Callers that pick a connection just as the sweeper finds it idle and closes it get their
     * answers all the same: what they queued is sent elsewhere, never written to the closing
     * connection and failed with it. Connections here go idle after a millisecond, so surplus ones
     * are closed again and again while sixteen callers with pauses of 0-2 ms keep choosing
     * them.
     */
    @Test
    void callersNeverGetTheIdleCloseOfTheConnectionTheyChose() throws Exception {
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addressList())
                .connectionsPerServer(1, 8).pipelineDepth(1).idleTimeout(Duration.ofMillis(1))
                .operationTimeout(Duration.ofSeconds(5)).build()) {
            client.blocking().set("idle-close", "v", Duration.ZERO);
            long opened = connectionsOpenedOnServer();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicInteger calls = new AtomicInteger();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            List<Thread> callers = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                Thread caller = new Thread(() -> {
                    while (System.nanoTime() < end) {
                        try {
                            assertThat(client.blocking().get("idle-close")).isEqualTo("v");
                            calls.incrementAndGet();
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                        // Pacing, not synchronisation: gaps long enough for connections to go idle.
                        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(2)));
                    }
                });
                caller.start();
                callers.add(caller);
            }
            for (Thread caller : callers) {
                caller.join();
            }
            assertThat(calls.get()).isGreaterThan(1_000);
            // More connections than the pool's maximum were opened: idle ones were closed meanwhile.
            assertThat(connectionsOpenedOnServer() - opened).isGreaterThan(8);
            assertThat(failures).isEmpty();
        }
    }

    /** Connections the server has accepted since it started. */
    private static long connectionsOpenedOnServer() {
        return Long.parseLong(memcached.first().stats().get("total_connections"));
    }

    /** Clients connected to the server, not counting the connection that asks. */
    private static int connectionsOnServer() {
        // curr_connections also counts the listening socket and the stats connection itself.
        return Integer.parseInt(memcached.first().stats().get("curr_connections")) - 2;
    }
}
