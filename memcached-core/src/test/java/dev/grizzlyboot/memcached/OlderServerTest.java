package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Version skew: this client against a server older than some of its commands. A real memcached
 * behind {@link OlderServerProxy} answers {@code touch} and {@code getAndTouch} as memcached 1.4.7
 * and before did ({@code UNKNOWN_COMMAND}). Those calls fail with that status, typed; every other
 * call, in flight on the same connections at the same time, gets its own answer; the connections
 * stay open, and the server stays in use however often it says so.
 */
class OlderServerTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void aCommandTheServerDoesNotKnowFailsWithItsStatusAndTheConnectionStaysInUse() throws Exception {
        try (OlderServerProxy older = new OlderServerProxy(memcached.first().port());
             MemcachedClient client = MemcachedClient.builder().servers(older.address()).failureThreshold(2).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            blocking.set("kept", "value", Duration.ZERO);

            assertThatThrownBy(() -> client.touch("kept", Duration.ofMinutes(5)).join())
                    .isInstanceOf(CompletionException.class).cause()
                    .isInstanceOfSatisfying(MemcachedStatusException.class,
                            e -> assertThat(e.status()).isEqualTo(ServerStatus.UNKNOWN_COMMAND))
                    .hasMessageContaining("touch").hasMessageContaining("kept");
            assertThatThrownBy(() -> blocking.getAndTouch("kept", Duration.ofMinutes(5)))
                    .isInstanceOfSatisfying(MemcachedStatusException.class,
                            e -> assertThat(e.status()).isEqualTo(ServerStatus.UNKNOWN_COMMAND));
            for (int i = 0; i < 20; i++) {
                assertThatThrownBy(() -> blocking.touch("kept", Duration.ofMinutes(5)))
                        .isInstanceOf(MemcachedStatusException.class);
            }

            assertThat(older.commandsRefused()).isEqualTo(22);
            // The refused touches changed nothing: no expiry on the item, as memcached itself says.
            assertThat(memcached.first().remainingTtl("kept")).isEqualTo(-1);
            assertThat(blocking.get("kept")).isEqualTo("value");
            assertThat(blocking.getMulti(List.of("kept", "absent")).values()).containsOnlyKeys("kept");
            assertThat(client.serverStates()).noneMatch(ServerState::failed);
            assertThat(older.connectionsClosedByClient()).as("connections the client closed").isZero();
        }
    }

    @Test
    void refusedCommandsInterleavedWithOthersOnOneConnectionLeaveEveryOtherAnswerWithItsCaller() throws Exception {
        try (OlderServerProxy older = new OlderServerProxy(memcached.first().port());
             MemcachedClient client = MemcachedClient.builder().servers(older.address()).connectionsPerServer(1, 1)
                     .build()) {
            int keys = 300;
            List<CompletableFuture<?>> writes = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                writes.add(client.set("skew-" + i, "value-" + i, Duration.ZERO));
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);

            // Sent back to back, so they share the connection's writes and its answers.
            List<CompletableFuture<Object>> reads = new ArrayList<>();
            List<CompletableFuture<Boolean>> touches = new ArrayList<>();
            List<CompletableFuture<Object>> getAndTouches = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                reads.add(client.get("skew-" + i));
                touches.add(client.touch("skew-" + i, Duration.ofMinutes(5)));
                getAndTouches.add(client.getAndTouch("skew-" + (keys - 1 - i), Duration.ofMinutes(5)));
            }
            for (int i = 0; i < keys; i++) {
                assertThat(reads.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("value-" + i);
                assertRefused(touches.get(i));
                assertRefused(getAndTouches.get(i));
            }
            assertThat(older.commandsRefused()).isEqualTo(2 * keys);
            assertThat(older.connectionsAccepted()).as("binary connections").isEqualTo(1);
        }
    }

    private static void assertRefused(CompletableFuture<?> call) {
        assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(MemcachedStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(ServerStatus.UNKNOWN_COMMAND));
    }
}
