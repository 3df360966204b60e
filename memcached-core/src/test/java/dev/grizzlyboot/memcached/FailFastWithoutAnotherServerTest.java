package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With failover on but no other server to move them to (a single server, or every other server
 * marked failed), calls sent while the server's pool has no connection are not held for it: they
 * fail at once with a connection error during the reconnect back-off, instead of waiting out the
 * operation timeout.
 */
class FailFastWithoutAnotherServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

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
            awaitNoConnection(client, 0, "unreachable");
            assertThat(client.serverStates().get(0).failed()).isFalse();
            assertFailsFast(blocking, "unreachable");
        }
    }

    @Test
    void callsFailFastWhenTheOnlyOtherServerIsMarkedFailed() {
        MemcachedProcess failed = memcached.get(0);
        MemcachedProcess unreachable = memcached.get(1);
        ServerAddress failedAddress = ServerAddress.parse(failed.address());
        // Eight timeouts mark a server failed; a killed server's lost connection and refused reconnect are fewer.
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addresses()).failover(true)
                .failureThreshold(8).operationTimeout(TIMEOUT).connectTimeout(Duration.ofMillis(300)).connectionsPerServer(1, 1)
                .healthCheckInterval(Duration.ofSeconds(30), Duration.ofSeconds(30))
                .reconnectBackoff(Duration.ofSeconds(5), Duration.ofSeconds(5)).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            blocking.set("moved", "value", Duration.ZERO);
            List<String> keysOfFailed = new ArrayList<>();
            for (int i = 0; keysOfFailed.size() < 10; i++) {
                if (client.ownerOf("hung-" + i).equals(failedAddress)) {
                    keysOfFailed.add("hung-" + i);
                }
            }
            blocking.get(keysOfFailed.get(0));

            failed.pause();
            try {
                List<CompletableFuture<Object>> timingOut = keysOfFailed.stream().map(client::get).toList();
                timingOut.forEach(future -> future.handle((value, error) -> null).join());
                await().atMost(Duration.ofSeconds(10)).until(() -> client.serverStates().get(0).failed());

                unreachable.kill();
                awaitNoConnection(client, 1, "moved");
                assertThat(client.serverStates().get(1).failed()).isFalse();
                assertFailsFast(blocking, "moved");
            } finally {
                failed.resume();
            }
        }
    }

    /** Calls for {@code key}, whose owner was killed, until the pool of server {@code index} has lost every connection. */
    private static void awaitNoConnection(MemcachedClient client, int index, String key) {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            client.get(key).handle((value, error) -> null).join();
            return client.serverDetails().get(index).openConnections() == 0;
        });
    }

    private static void assertFailsFast(BlockingMemcachedClient blocking, String key) {
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> blocking.get(key)).isInstanceOf(MemcachedConnectionException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to fail").isLessThan(TIMEOUT.dividedBy(2));
        }
    }
}
