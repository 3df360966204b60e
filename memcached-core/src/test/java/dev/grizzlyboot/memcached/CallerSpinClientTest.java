package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Which blocking calls spin for their answer, seen through the spin's back-off against a real
 * server that stops answering (SIGSTOP): a single-key call that spins and times out is a miss and
 * makes the next call park at once; a bulk call never spins; {@code callerSpin(ZERO)} turns
 * spinning off. {@link CallerSpinTest} covers the decisions themselves.
 */
class CallerSpinClientTest {

    private static final Duration TIMEOUT = Duration.ofMillis(200);
    /** What every test stores first; {@link #useUpSkips} reads it back. */
    private static final String STORED = "value";

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void singleKeyCallsSpinAndBulkCallsDoNot() {
        MemcachedProcess server = memcached.first();
        try (MemcachedClient client = client(server, Duration.ofMillis(1))) {
            BlockingMemcachedClient blocking = client.blocking();
            blocking.set("spin-key", STORED, Duration.ZERO);
            useUpSkips(blocking, "spin-key");
            server.pause();
            try {
                assertThat(blocking.getMulti(List.of("spin-key", "other")).errors().values())
                        .hasSize(2).allMatch(MemcachedTimeoutException.class::isInstance);
                assertThat(blocking.spin().skipping()).as("a bulk call neither spins nor skips").isZero();

                assertThatThrownBy(() -> blocking.get("spin-key")).isInstanceOf(MemcachedTimeoutException.class);
                int skipping = blocking.spin().skipping();
                assertThat(skipping).as("calls parking at once after the get's missed spin").isPositive();

                assertThat(blocking.setMulti(Map.of("spin-key", "v2"), Duration.ZERO).errors().values())
                        .singleElement().isInstanceOf(MemcachedTimeoutException.class);
                assertThat(blocking.spin().skipping()).isEqualTo(skipping);
                assertThatThrownBy(() -> blocking.delete("spin-key")).isInstanceOf(MemcachedTimeoutException.class);
                assertThat(blocking.spin().skipping()).as("the delete parked at once").isEqualTo(skipping - 1);
            } finally {
                server.resume();
            }
        }
    }

    @Test
    void awaitWaitsForAComposedFutureAsASingleKeyCallWaits() {
        MemcachedProcess server = memcached.first();
        try (MemcachedClient client = client(server, Duration.ofMillis(1))) {
            BlockingMemcachedClient blocking = client.blocking();
            blocking.set("composed", STORED, Duration.ZERO);
            String composed = blocking.await(client.get("composed").thenApply(value -> value + "!"), 1);
            assertThat(composed).isEqualTo(STORED + "!");
            useUpSkips(blocking, "composed");
            assertThatThrownBy(() -> blocking.await(client.get("composed"), 0)).isInstanceOf(IllegalArgumentException.class);
            server.pause();
            try {
                assertThatThrownBy(() -> blocking.await(client.get("composed").thenApply(value -> value + "!"), 1))
                        .isInstanceOf(MemcachedTimeoutException.class);
                assertThat(blocking.spin().skipping()).as("calls parking at once after its missed spin").isPositive();
            } finally {
                server.resume();
            }
        }
    }

    @Test
    void aZeroWindowTurnsSpinningOff() {
        MemcachedProcess server = memcached.first();
        try (MemcachedClient client = client(server, Duration.ZERO)) {
            BlockingMemcachedClient blocking = client.blocking();
            blocking.set("spin-off", STORED, Duration.ZERO);
            server.pause();
            try {
                assertThatThrownBy(() -> blocking.get("spin-off")).isInstanceOf(MemcachedTimeoutException.class);
                assertThat(blocking.spin().skipping()).as("no spin, so no miss").isZero();
            } finally {
                server.resume();
            }
        }
    }

    /** Operations time out rather than mark the server failed, so every call here waits for its answer. */
    private static MemcachedClient client(MemcachedProcess server, Duration spin) {
        return MemcachedClient.builder().servers(server.address()).operationTimeout(TIMEOUT)
                .failover(false).failureThreshold(100).callerSpin(spin).build();
    }

    /**
     * Calls made while the connection was still opening may have missed their spins; uses up the
     * skips by reading {@code storedKey}, which holds {@link #STORED}.
     */
    private static void useUpSkips(BlockingMemcachedClient blocking, String storedKey) {
        for (int call = 0; call < 10_000 && blocking.spin().skipping() > 0; call++) {
            assertThat(blocking.get(storedKey)).isEqualTo(STORED);
        }
        assertThat(blocking.spin().skipping()).isZero();
    }

    @Test
    void theWindowIsBetweenZeroAndOneMillisecond() {
        assertThatThrownBy(() -> MemcachedClient.builder().callerSpin(Duration.ofMillis(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("callerSpin");
        assertThatThrownBy(() -> MemcachedClient.builder().callerSpin(Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
