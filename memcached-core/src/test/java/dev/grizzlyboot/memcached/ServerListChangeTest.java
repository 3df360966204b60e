package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerListChange;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.assertj.core.util.introspection.PropertyOrFieldSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Servers added and removed at run time: under load nothing fails, keys move to and from the
 * changed servers, removed servers' connections close once drained, and a prepared list changes
 * nothing until it is applied.
 */
class ServerListChangeTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @Test
    void addingAndRemovingServersUnderLoadFailsNothing() throws Exception {
        MemcachedProcess a = memcached.get(0);
        MemcachedProcess b = memcached.get(1);
        MemcachedProcess c = memcached.get(2);
        try (MemcachedClient client = MemcachedClient.builder().servers(a.address(), b.address())
                .operationTimeout(Duration.ofSeconds(1)).build()) {
            Load load = new Load(client.blocking(), 8, 50, Duration.ofSeconds(40));
            awaitMoreSuccesses(load);

            client.addServer(c.address());
            assertThat(client.servers()).extracting(ServerAddress::toString).containsExactly(a.address(), b.address(), c.address());
            long setsOnC = sets(c);
            await().atMost(Duration.ofSeconds(10)).until(() -> sets(c) > setsOnC + 200);

            int aConnections = connections(a);
            client.removeServer(a.address());
            awaitMoreSuccesses(load);
            long setsOnA = sets(a);
            awaitMoreSuccesses(load);
            assertThat(sets(a)).as("no new writes reach a removed server").isEqualTo(setsOnA);
            await().atMost(Duration.ofSeconds(10)).until(() -> connections(a) < aConnections);

            client.setServers(List.of(a.address(), c.address()));
            awaitMoreSuccesses(load);
            load.stop();

            assertThat(load.errors).as("errors: %s", load.firstErrors).isEmpty();
            assertThat(load.wrongValues.get()).isZero();
            assertThat(client.servers()).extracting(ServerAddress::toString).containsExactly(a.address(), c.address());
        }
    }

    @Test
    void aPreparedListRoutesNothingUntilAppliedAndDiscardingClosesItsConnections() {
        MemcachedProcess a = memcached.get(0);
        MemcachedProcess b = memcached.get(1);
        try (MemcachedClient client = MemcachedClient.builder().servers(a.address()).build()) {
            int bConnections = connections(b);
            ServerListChange discarded = client.prepareServers(List.of(a.address(), b.address()));
            await().atMost(Duration.ofSeconds(5)).until(() -> connections(b) > bConnections);
            assertThat(client.servers()).extracting(ServerAddress::toString).containsExactly(a.address());
            discarded.discard();
            await().atMost(Duration.ofSeconds(5)).until(() -> connections(b) == bConnections);

            ServerListChange change = client.prepareServers(List.of(a.address(), b.address()));
            String movingKey = firstKeyOwnedBy(change, b);
            assertThat(client.serverFor(movingKey).toString()).isEqualTo(a.address());
            change.apply();
            assertThat(client.serverFor(movingKey).toString()).isEqualTo(b.address());
            client.blocking().set(movingKey, "on-b", Duration.ZERO);
            assertThat(b.textCommand("get " + movingKey)).contains("on-b");
        }
    }

    /**
     * Looks inside (the ring is not public): members of a coordinated change switch at one moment,
     * so applying must not rebuild the ring that prepare built. Only when another change added one of
     * the prepared servers meanwhile is the ring rebuilt, around the node that change opened.
     */
    @Test
    void applyingUsesTheRingPrepareBuiltUnlessAnotherChangeAddedOneOfItsServers() {
        MemcachedProcess a = memcached.get(0);
        MemcachedProcess b = memcached.get(1);
        MemcachedProcess c = memcached.get(2);
        try (MemcachedClient client = MemcachedClient.builder().servers(a.address()).build()) {
            ServerListChange change = client.prepareServers(List.of(a.address(), b.address(), c.address()));
            Object preparedRing = PropertyOrFieldSupport.EXTRACTION.getValueOf("prepared.all", change);
            change.apply();
            assertThat(client).extracting("cluster.topology.all").isSameAs(preparedRing);

            ServerListChange raced = client.prepareServers(List.of(a.address(), b.address()));
            client.setServers(List.of(a.address()));
            client.addServer(b.address());
            Object racedRing = PropertyOrFieldSupport.EXTRACTION.getValueOf("prepared.all", raced);
            raced.apply();
            assertThat(client).extracting("cluster.topology.all").isNotSameAs(racedRing);
            String movingKey = firstKeyOwnedBy(raced, b);
            assertThat(client.serverFor(movingKey).toString()).isEqualTo(b.address());
            client.blocking().set(movingKey, "on-b", Duration.ZERO);
            assertThat(b.textCommand("get " + movingKey)).contains("on-b");
        }
    }

    @Test
    void theLastServerCannotBeRemovedAndBadAddressesAreRejected() {
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.first().address()).build()) {
            assertThatThrownBy(() -> client.removeServer(memcached.first().address()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("last server");
            assertThatThrownBy(() -> client.setServers(List.of())).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> client.addServer("host:notaport")).isInstanceOf(IllegalArgumentException.class);
            client.blocking().set("still-works", "yes", Duration.ZERO);
            assertThat(client.blocking().get("still-works")).isEqualTo("yes");
        }
    }

    private static void awaitMoreSuccesses(Load load) {
        long before = load.successes.get();
        await().atMost(Duration.ofSeconds(10)).until(() -> load.successes.get() > before + 2_000);
    }

    private static long sets(MemcachedProcess server) {
        return Long.parseLong(server.stats().get("cmd_set"));
    }

    /** Client connections the server has open, minus the one the stats request itself uses. */
    private static int connections(MemcachedProcess server) {
        return Integer.parseInt(server.stats().get("curr_connections")) - 1;
    }

    private static String firstKeyOwnedBy(ServerListChange change, MemcachedProcess server) {
        for (int i = 0; ; i++) {
            if (change.ownerOf("moving-" + i).toString().equals(server.address())) {
                return "moving-" + i;
            }
        }
    }
}
