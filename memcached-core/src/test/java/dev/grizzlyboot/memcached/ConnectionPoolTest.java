package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

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
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addressList())
                .connectionsPerServer(1, 3).pipelineDepth(1).idleTimeout(Duration.ofMillis(300)).build()) {
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

    /** Clients connected to the server, not counting the connection that asks. */
    private static int connectionsOnServer() {
        // curr_connections also counts the listening socket and the stats connection itself.
        return Integer.parseInt(memcached.first().stats().get("curr_connections")) - 2;
    }
}
