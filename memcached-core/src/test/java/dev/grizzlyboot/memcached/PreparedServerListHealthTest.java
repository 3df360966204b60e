package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerListChange;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A prepared server list routes by the servers' health when it is applied, not when it was
 * prepared: a kept server marked failed in between stays out of the ring once the list applies.
 */
class PreparedServerListHealthTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @Test
    void aServerThatFailedAfterPrepareIsOutOfTheAppliedRing() {
        MemcachedProcess victim = memcached.get(1);
        ServerAddress victimAddress = ServerAddress.parse(victim.address());
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.get(0).address(), victim.address())
                .failureThreshold(1).operationTimeout(Duration.ofMillis(300))
                .healthCheckInterval(Duration.ofSeconds(30), Duration.ofSeconds(30)).build()) {
            ServerListChange change = client.prepareServers(memcached.addresses());
            String key = null;
            for (int i = 0; key == null; i++) {
                if (client.ownerOf("prepared-" + i).equals(victimAddress)) {
                    key = "prepared-" + i;
                }
            }
            String victimsKey = key;
            client.blocking().get(victimsKey);

            victim.pause();
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    client.get(victimsKey).handle((value, error) -> null).join();
                    return client.serverStates().get(1).failed();
                });
                change.apply();
                assertThat(client.servers()).hasSize(3);
                assertThat(client.serverStates().get(1).failed()).isTrue();
                // Every key the failed server owns by the new list is read elsewhere.
                List<String> ownedByVictim = IntStream.range(0, 500).mapToObj(i -> "prepared-" + i)
                        .filter(candidate -> client.ownerOf(candidate).equals(victimAddress)).toList();
                assertThat(ownedByVictim).isNotEmpty()
                        .allSatisfy(candidate -> assertThat(client.serverFor(candidate)).isNotEqualTo(victimAddress));
            } finally {
                victim.resume();
            }
        }
    }
}
