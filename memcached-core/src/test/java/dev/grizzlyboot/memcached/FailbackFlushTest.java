package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server hung (SIGSTOP, so it keeps its data) is marked failed; its keys are rewritten on the
 * other server meanwhile; it comes back. With the failback flush (the default) no value older than
 * the outage is read afterwards; without it, or after an outage shorter than the configured
 * minimum, the old values come back, which is the hazard the flush removes.
 */
class FailbackFlushTest {

    private static final Duration TIMEOUT = Duration.ofMillis(300);
    private static final int KEYS = 200;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    @Test
    void byDefaultNoValueOlderThanTheOutageIsReadAfterFailback() {
        List<Object> afterFailback = outageAndFailback(builder -> builder);
        // The flushed server misses; the caller reloads from the source of truth.
        assertThat(afterFailback).hasSize(KEYS).doesNotContain("before").allMatch(Objects::isNull);
    }

    @Test
    void withoutTheFlushTheReturningServerServesValuesFromBeforeTheOutage() {
        List<Object> afterFailback = outageAndFailback(builder -> builder.failbackFlush(false));
        assertThat(afterFailback).hasSize(KEYS).containsOnly("before");
    }

    @Test
    void anOutageShorterThanTheMinimumDoesNotFlush() {
        List<Object> afterFailback = outageAndFailback(builder -> builder.failbackFlush(Duration.ofMinutes(10)));
        assertThat(afterFailback).hasSize(KEYS).containsOnly("before");
    }

    @Test
    void aNegativeMinimumOutageIsRefused() {
        assertThatThrownBy(() -> MemcachedClient.builder().failbackFlush(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** The values of the hung server's keys, read once it is back in the ring. */
    private static List<Object> outageAndFailback(UnaryOperator<MemcachedClientBuilder> configure) {
        MemcachedProcess victim = memcached.first();
        ServerAddress victimAddress = ServerAddress.parse(victim.address());
        try (MemcachedClient client = configure.apply(MemcachedClient.builder().servers(memcached.addressList())
                .operationTimeout(TIMEOUT).failureThreshold(1)
                .healthCheckInterval(Duration.ofMillis(50), Duration.ofMillis(200))).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            List<String> keys = new ArrayList<>();
            for (int i = 0; keys.size() < KEYS; i++) {
                if (client.ownerOf("failback-" + i).equals(victimAddress)) {
                    keys.add("failback-" + i);
                }
            }
            keys.forEach(key -> blocking.set(key, "before", Duration.ZERO));

            victim.pause();
            try {
                // A read times out and marks the server failed; its keys move to the other server. (A
                // timeout right after this JVM was starved does not count, so a loaded machine may need more.)
                assertThatThrownBy(() -> blocking.get(keys.get(0))).isInstanceOf(MemcachedTimeoutException.class);
                await().atMost(Duration.ofSeconds(5)).until(() -> {
                    client.get(keys.get(0)).handle((value, error) -> null).join();
                    return client.serverStates().get(0).failed();
                });
                keys.forEach(key -> blocking.set(key, "during", Duration.ZERO));
                assertThat(client.serverFor(keys.get(0))).isNotEqualTo(victimAddress);
            } finally {
                victim.resume();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> !client.serverStates().get(0).failed());
            assertThat(client.serverFor(keys.get(0))).isEqualTo(victimAddress);
            return keys.stream().map(blocking::get).toList();
        }
    }
}
