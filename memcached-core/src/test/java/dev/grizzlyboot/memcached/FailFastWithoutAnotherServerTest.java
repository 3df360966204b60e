package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With failover on but no other server to move them to (a single server), calls sent while the
 * server's pool has no connection are not held for it: they fail at once with a connection error
 * during the reconnect back-off, instead of waiting out the operation timeout.
 */
class FailFastWithoutAnotherServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void aSingleServersCallsFailFastWhileItIsUnreachable() {
        MemcachedProcess server = memcached.first();
        // A threshold never reached here: the server stays active, only unreachable.
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address()).failover(true)
                .failureThreshold(1_000).operationTimeout(TIMEOUT).connectTimeout(Duration.ofMillis(300))
                .reconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(2)).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            blocking.set("unreachable", "value", Duration.ZERO);

            server.kill();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                client.get("unreachable").handle((value, error) -> null).join();
                return client.serverDetails().get(0).openConnections() == 0;
            });
            assertThat(client.serverStates().get(0).failed()).isFalse();
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> blocking.get("unreachable")).isInstanceOf(MemcachedConnectionException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to fail").isLessThan(TIMEOUT.dividedBy(2));
            }
        }
    }
}
