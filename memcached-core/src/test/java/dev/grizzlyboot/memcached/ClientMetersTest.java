package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The client's Micrometer meters, by name and tags, against real memcached processes. */
class ClientMetersTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    private final MeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void everyOperationAndOutcomeHasItsTimerFromTheStart() {
        try (MemcachedClient client = builder().build()) {
            for (String operation : new String[] {"get", "set", "delete", "getMulti", "flushAll"}) {
                for (String outcome : new String[] {"success", "timeout", "connection_error", "server_error", "client_error"}) {
                    assertThat(timerCount(operation, outcome)).isZero();
                }
            }
        }
    }

    @Test
    void requestsAreTimedByOperationAndOutcome() {
        try (MemcachedClient client = builder().build()) {
            client.blocking().set("metered", "value", Duration.ofMinutes(1));
            assertThat(client.blocking().get("metered")).isEqualTo("value");
            assertThat(client.blocking().get("metered-miss")).isNull();
            assertThatThrownBy(() -> client.blocking().get("bad key")).isInstanceOf(InvalidKeyException.class);
            assertThatThrownBy(() -> client.blocking().incr("metered", 1)).isInstanceOf(MemcachedStatusException.class);
            client.blocking().getMulti(java.util.List.of("metered", "metered-miss"));

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(timerCount("set", "success")).isEqualTo(1);
                assertThat(timerCount("get", "success")).isEqualTo(2);
                assertThat(timerCount("get", "client_error")).isEqualTo(1);
                assertThat(timerCount("incr", "server_error")).isEqualTo(1);
                assertThat(timerCount("getMulti", "success")).isEqualTo(1);
            });
            assertThat(registry.get(MicrometerClientMeters.REQUESTS).tag("operation", "get").tag("outcome", "success")
                    .timer().totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
        }
    }

    @Test
    void aHungServersRequestsAreTimedOut() {
        MemcachedProcess only = memcached.first();
        try (MemcachedClient client = MemcachedClient.builder().servers(only.address()).meterRegistry(registry)
                .operationTimeout(Duration.ofMillis(200)).failureThreshold(100).build()) {
            client.blocking().set("before-hang", "x", Duration.ofMinutes(1));
            only.pause();
            try {
                assertThatThrownBy(() -> client.blocking().get("before-hang")).isInstanceOf(MemcachedTimeoutException.class);
            } finally {
                only.resume();
            }
            await().atMost(WAIT).untilAsserted(() -> assertThat(timerCount("get", "timeout")).isEqualTo(1));
        }
    }

    @Test
    void serversHaveConnectionInFlightFailureAndFailbackMeters() {
        MemcachedProcess victim = memcached.get(1);
        try (MemcachedClient client = builder().operationTimeout(Duration.ofMillis(200)).failureThreshold(1)
                .healthCheckInterval(Duration.ofMillis(50), Duration.ofMillis(200)).build()) {
            for (String server : memcached.addresses()) {
                await().atMost(WAIT).untilAsserted(() ->
                        // The default pool opens its two connections per server at start-up.
                        assertThat(registry.get("memcached.client.connections").tag("server", server).gauge().value()).isEqualTo(2.0));
                assertThat(registry.get("memcached.client.requests.in.flight").tag("server", server).gauge().value()).isZero();
                assertThat(registry.get("memcached.client.server.failures").tag("server", server).counter().count()).isZero();
            }
            victim.kill();
            await().atMost(WAIT).untilAsserted(() -> {
                client.noop().exceptionally(error -> null).join();
                assertThat(registry.get("memcached.client.server.failures").tag("server", victim.address()).counter().count())
                        .isOne();
            });
            victim.restart();
            await().atMost(WAIT).untilAsserted(() -> assertThat(registry.get("memcached.client.server.failbacks")
                    .tag("server", victim.address()).counter().count()).isOne());
        }
    }

    @Test
    void serverMetersFollowTheServerList() {
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.first().address()).meterRegistry(registry).build()) {
            String added = memcached.get(1).address();
            assertThat(registry.find("memcached.client.connections").tag("server", added).gauge()).isNull();
            client.addServer(added);
            assertThat(registry.find("memcached.client.connections").tag("server", added).gauge()).isNotNull();
            client.removeServer(added);
            assertThat(registry.find("memcached.client.connections").tag("server", added).gauge()).isNull();
        }
    }

    @Test
    void nearCacheHitsMissesAndSize() {
        try (MemcachedClient client = builder().nearCache(Duration.ofMinutes(1), 100).build()) {
            client.blocking().set("near-metered", "value", Duration.ofMinutes(1));
            client.blocking().get("near-metered");
            client.blocking().get("near-metered");
            client.blocking().get("near-metered");
            assertThat(registry.get("memcached.client.near.gets").tag("result", "miss").functionCounter().count()).isEqualTo(1);
            assertThat(registry.get("memcached.client.near.gets").tag("result", "hit").functionCounter().count()).isEqualTo(2);
            assertThat(registry.get("memcached.client.near.size").gauge().value()).isOne();
        }
    }

    @Test
    void closingTheClientRemovesItsMeters() {
        MemcachedClient client = builder().build();
        assertThat(registry.find(MicrometerClientMeters.REQUESTS).timers()).isNotEmpty();
        assertThat(registry.find("memcached.client.connections").gauges()).hasSize(2);
        client.close();
        assertThat(registry.getMeters()).isEmpty();
    }

    private MemcachedClientBuilder builder() {
        return MemcachedClient.builder().servers(memcached.addresses()).meterRegistry(registry);
    }

    private long timerCount(String operation, String outcome) {
        return registry.get(MicrometerClientMeters.REQUESTS).tag("operation", operation).tag("outcome", outcome).timer().count();
    }
}
