package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Counting a server's failures: it is marked failed at exactly {@code failureThreshold}
 * consecutive timeouts, not one later, and an answer in between starts the count again, so
 * failures that are not consecutive never mark it failed.
 */
class FailureCountingTest {

    /** Long, so that a timeout is not discounted as following a stall of this JVM on a loaded machine. */
    private static final Duration TIMEOUT = Duration.ofMillis(600);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void anAnswerResetsTheCountAndTheThresholdthFailureMarksTheServerFailed() {
        MemcachedProcess server = memcached.first();
        List<ServerState> changes = new CopyOnWriteArrayList<>();
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address()).failover(false)
                .failureThreshold(2).operationTimeout(TIMEOUT).connectTimeout(TIMEOUT)
                .healthCheckInterval(Duration.ofSeconds(30), Duration.ofSeconds(30)).build()) {
            client.addServerStateListener(changes::add);
            BlockingMemcachedClient blocking = client.blocking();
            blocking.set("counted", "value", Duration.ZERO);

            // One timeout, an answer, one timeout: never two in a row.
            for (int round = 0; round < 2; round++) {
                server.pause();
                try {
                    assertThatThrownBy(() -> blocking.get("counted")).isInstanceOf(MemcachedTimeoutException.class);
                } finally {
                    server.resume();
                }
                // The late answer to the timed-out get comes first on the connection; then this one.
                await("answers again, not marked failed").atMost(Duration.ofSeconds(10)).ignoreExceptions()
                        .until(() -> "value".equals(blocking.get("counted")));
            }
            assertThat(changes).as("state changes after failures that were not consecutive").isEmpty();
            assertThat(client.serverStates().get(0).failed()).isFalse();

            // Two in a row: the threshold is reached by the second, with no further traffic.
            server.pause();
            try {
                assertThatThrownBy(() -> blocking.get("counted")).isInstanceOf(MemcachedTimeoutException.class);
                assertThat(changes).as("after one timeout").isEmpty();
                assertThatThrownBy(() -> blocking.get("counted")).isInstanceOf(MemcachedTimeoutException.class);
                await().atMost(Duration.ofSeconds(5)).until(() -> !changes.isEmpty());
                assertThat(changes).extracting(ServerState::status).containsExactly(ServerState.Status.FAILED);
                assertThatThrownBy(() -> blocking.get("counted")).isInstanceOf(ServerUnavailableException.class);
            } finally {
                server.resume();
            }
        }
    }
}
