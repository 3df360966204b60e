package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.grizzlyboot.memcached.cluster.ServerDetails;
import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client with the builder's defaults (text bulk reads on) against memcached started with
 * {@code -B binary}, which closes a connection whose first 24 bytes are not a binary header and
 * waits for more when it has fewer: bulk reads still answer, over the binary protocol, the server
 * is never marked failed (so no failback flush empties it), and the text connections stay closed.
 * Against a server that speaks both protocols the bulk reads still go on text connections.
 */
class BinaryOnlyServerTest {

    /** More rounds than the default failure threshold (3): each failed text read would count. */
    private static final int ROUNDS = 6;

    @RegisterExtension
    static MemcachedExtension binaryOnly = MemcachedExtension.servers(1, MemcachedOptions.defaults().withBinaryOnly());

    @RegisterExtension
    static MemcachedExtension bothProtocols = MemcachedExtension.server();

    /** {@code get k} is shorter than a binary header: memcached would wait for the rest of it. */
    @Test
    void aShortGetLineReadsOverBinary() {
        readsOverBinary(1);
    }

    /** A {@code get} line longer than a binary header: memcached would close the connection on its first byte. */
    @Test
    void aLongGetLineReadsOverBinary() {
        readsOverBinary(50);
    }

    private static void readsOverBinary(int keyCount) {
        MemcachedProcess server = binaryOnly.first();
        String prefix = UUID.randomUUID().toString().substring(0, 4);
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < keyCount; i++) {
            values.put(prefix + i, "value " + i);
        }
        List<ServerState> changes = new CopyOnWriteArrayList<>();
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address()).build()) {
            client.addServerStateListener(changes::add);
            BlockingMemcachedClient blocking = client.blocking();
            assertThat(blocking.setMulti(values, Duration.ZERO).errors()).isEmpty();
            long items = Long.parseLong(server.stats().get("curr_items"));

            for (int round = 0; round < ROUNDS; round++) {
                BulkResult<Object> read = blocking.getMulti(values.keySet());
                assertThat(read.errors()).as("round %d", round).isEmpty();
                assertThat(read.values()).as("round %d", round).isEqualTo(values);
                BulkResult<Object> withCas = blocking.getsMulti(values.keySet());
                assertThat(withCas.errors()).as("round %d", round).isEmpty();
                assertThat(withCas.values()).as("round %d", round).isEqualTo(values);
                assertThat(withCas.get(prefix + 0).cas()).isNotZero();
            }

            assertThat(changes).as("server state changes").isEmpty();
            assertThat(client.serverStates()).noneMatch(ServerState::failed);
            assertThat(blocking.getMulti(values.keySet()).values()).isEqualTo(values);
            assertThat(Long.parseLong(server.stats().get("curr_items"))).as("items after the reads").isEqualTo(items);
            // Only the binary connections: the pool remembers that the text ones are refused.
            assertThat(client.serverDetails()).allMatch(details -> details.openConnections() == 2);
        }
    }

    @Test
    void aServerThatSpeaksTextStillGetsTextBulkReads() {
        MemcachedProcess server = bothProtocols.first();
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address()).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            blocking.set("both:a", "a", Duration.ZERO);
            await().atMost(Duration.ofSeconds(5)).until(() -> openConnections(client) == 2);
            int before = Integer.parseInt(server.stats().get("curr_connections"));

            for (int round = 0; round < ROUNDS; round++) {
                assertThat(blocking.getMulti(List.of("both:a", "both:b")).values()).containsOnlyKeys("both:a");
            }

            // The bulk reads opened text connections of their own (two, as the binary ones), and they stay open.
            await().atMost(Duration.ofSeconds(5)).until(() -> openConnections(client) == 4);
            assertThat(Integer.parseInt(server.stats().get("curr_connections"))).isEqualTo(before + 2);
        }
    }

    private static int openConnections(MemcachedClient client) {
        return client.serverDetails().stream().mapToInt(ServerDetails::openConnections).sum();
    }
}
