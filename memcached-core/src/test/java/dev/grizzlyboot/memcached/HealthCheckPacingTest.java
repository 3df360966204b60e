package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The pace of a failed server's health checks: their delays double from the first one (a server
 * back after a long outage waits for the next, later check) and stop growing at the maximum (it
 * is back within about the maximum however long it was away).
 */
class HealthCheckPacingTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void delaysDoubleFromTheFirst() {
        // Checks at about 0.1, 0.3, 0.7, 1.5 and 3.1 s after the failure: back at 1.6 s, it waits for the one at 3.1 s.
        long backAfterMillis = outageAndRecovery(Duration.ofMillis(100), Duration.ofSeconds(10), Duration.ofMillis(1_600));
        assertThat(backAfterMillis).as("ms from the restart to failback").isGreaterThanOrEqualTo(500);
    }

    @Test
    void delaysStopGrowingAtTheMaximum() {
        // Checks every 200 ms once the delay reaches it; uncapped the next after 3.3 s would come at about 6.3 s.
        long backAfterMillis = outageAndRecovery(Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofMillis(3_300));
        assertThat(backAfterMillis).as("ms from the restart to failback").isLessThan(1_500);
    }

    /** Kills the server, restarts it {@code outage} after it was marked failed, and returns how long failback took from then. */
    private static long outageAndRecovery(Duration firstCheck, Duration maxCheck, Duration outage) {
        MemcachedProcess server = memcached.first();
        AtomicLong failedAt = new AtomicLong();
        AtomicLong activeAt = new AtomicLong();
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address()).failover(false)
                .failureThreshold(1).operationTimeout(Duration.ofMillis(300)).connectTimeout(Duration.ofMillis(300))
                .healthCheckInterval(firstCheck, maxCheck).build()) {
            client.addServerStateListener(state -> (state.status() == ServerState.Status.FAILED ? failedAt : activeAt)
                    .compareAndSet(0, System.nanoTime()));
            client.blocking().set("paced", "value", Duration.ZERO);

            server.kill();
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                client.get("paced").handle((value, error) -> null).join();
                return failedAt.get() != 0;
            });
            // The outage itself: nothing to wait for but the clock.
            await().pollInterval(Duration.ofMillis(10)).atMost(outage.plusSeconds(5))
                    .until(() -> System.nanoTime() - failedAt.get() >= outage.toNanos());
            server.restart();
            long restarted = System.nanoTime();
            await().atMost(Duration.ofSeconds(15)).until(() -> activeAt.get() != 0);
            assertThat(client.blocking().get("paced")).as("a fresh server after failback").isNull();
            return Duration.ofNanos(activeAt.get() - restarted).toMillis();
        }
    }
}
