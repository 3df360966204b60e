package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server that dies with one request written and more queued behind it (a fake server that
 * closes its connection and stops listening on its first request, next to a real memcached):
 * only the written request fails; the queued ones, never written, are held until the server is
 * marked failed and then go to the next server on the ring, where they run once.
 */
class RerouteUnsentTest {

    private static final int QUEUED = 20;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void onlyTheRequestWrittenToTheDeadServerFailsTheQueuedOnesGoToTheNextServer() throws Exception {
        AtomicReference<FakeServer> dying = new AtomicReference<>();
        // Takes one connection and stops listening (so reconnects are refused), answers the warm-up
        // read on it, then hangs up on the next request.
        dying.set(new FakeServer(connection -> {
            closeQuietly(dying.get());
            int[] seen = {0};
            return (out, opaque) -> ++seen[0] == 1 && FakeServer.MISS.answer(out, opaque);
        }));
        try (FakeServer server = dying.get();
                MemcachedClient client = MemcachedClient.builder().servers(server.address(), memcached.first().address())
                        .connectionsPerServer(1, 1).operationTimeout(Duration.ofSeconds(3)).build()) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; keys.size() < QUEUED + 1; i++) {
                if (client.ownerOf("reroute-" + i).toString().equals(server.address())) {
                    keys.add("reroute-" + i);
                }
            }
            assertThat(client.get(keys.get(0)).join()).isNull();
            // The connection is open and idle: the first set is written at once, the rest queue behind it.
            List<CompletableFuture<Void>> sets = new ArrayList<>();
            keys.forEach(key -> sets.add(client.set(key, "value-" + key, Duration.ZERO)));

            assertThatThrownBy(sets.get(0)::join).cause().isInstanceOf(MemcachedConnectionException.class);
            for (int i = 1; i < sets.size(); i++) {
                sets.get(i).join();
            }
            assertThat(server.receivedKeys()).as("what reached the dead server").containsExactly(keys.get(0), keys.get(0));
            assertThat(server.connectionsAccepted()).isEqualTo(1);
            assertThat(client.serverStates().get(0).failed()).isTrue();
            for (String key : keys.subList(1, keys.size())) {
                assertThat(memcached.first().textCommand("get " + key)).as(key).contains("value-" + key);
            }
            assertThat(memcached.first().textCommand("get " + keys.get(0))).noneMatch(line -> line.contains("value-"));
        }
    }

    private static void closeQuietly(FakeServer server) {
        try {
            server.close();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
