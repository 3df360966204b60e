package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server removed from the list is no longer watched: a request it still had in flight that
 * times out after the removal marks nothing failed and tells no state listener.
 */
class RemovedServerStateTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    @Test
    void aTimeoutOnARemovedServerChangesNoState() {
        MemcachedProcess removed = memcached.get(1);
        ServerAddress removedAddress = ServerAddress.parse(removed.address());
        List<ServerState> changes = new CopyOnWriteArrayList<>();
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addresses()).failureThreshold(1)
                .operationTimeout(Duration.ofMillis(500)).build()) {
            client.addServerStateListener(changes::add);
            String key = null;
            for (int i = 0; key == null; i++) {
                if (client.ownerOf("removed-" + i).equals(removedAddress)) {
                    key = "removed-" + i;
                }
            }
            client.blocking().get(key);

            removed.pause();
            try {
                CompletableFuture<Object> inFlight = client.get(key);
                client.removeServer(removed.address());
                assertThatThrownBy(inFlight::join).isInstanceOf(CompletionException.class)
                        .hasCauseInstanceOf(MemcachedTimeoutException.class);
                // The timeout is counted on the sweeper thread right after it failed the request.
                await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(changes::isEmpty);
                assertThat(client.serverStates()).hasSize(1).noneMatch(ServerState::failed);
            } finally {
                removed.resume();
            }
        }
    }
}
