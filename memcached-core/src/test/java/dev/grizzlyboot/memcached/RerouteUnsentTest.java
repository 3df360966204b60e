package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A server that dies with one request written and more queued behind it (a fake server that
 * closes its connection and stops listening on its first request, next to a real memcached):
 * only the written request fails; the queued ones, never written, are held until the server is
 * marked failed and then go to the next server on the ring, where they run once. When the server
 * takes a new connection at once, they stay with it. When it is removed from the list instead,
 * what was queued or held for it goes where the new list puts its keys (with replicas, reads only;
 * a bulk share split between new owners still gives each key its own answer).
 */
class RerouteUnsentTest {

    private static final int QUEUED = 20;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    @Test
    void onlyTheRequestWrittenToTheDeadServerFailsTheQueuedOnesGoToTheNextServer() throws Exception {
        try (FakeServer server = dyingOnItsSecondRequest();
                MemcachedClient client = client(server)) {
            List<String> keys = keysOwnedBy(client, server, "reroute-");
            List<CompletableFuture<Void>> sets = writeOneThenQueueTheRest(client, server, keys);
            assertOnlyTheWrittenOneFails(sets);
            assertThat(server.receivedKeys()).as("what reached the dead server").containsExactly(keys.get(0), keys.get(0));
            assertThat(server.connectionsAccepted()).isEqualTo(1);
            assertThat(client.serverStates().get(0).failed()).isTrue();
            for (String key : keys.subList(1, keys.size())) {
                assertThat(memcached.first().textCommand("get " + key)).as(key).contains("value-" + key);
            }
            assertThat(memcached.first().textCommand("get " + keys.get(0))).noneMatch(line -> line.contains("value-"));
        }
    }

    @Test
    void aBulkShareQueuedBehindTheWrittenRequestGoesToTheNextServerToo() throws Exception {
        try (FakeServer server = dyingOnItsSecondRequest();
                MemcachedClient client = client(server)) {
            List<String> keys = keysOwnedBy(client, server, "bulk-reroute-");
            assertThat(client.get(keys.get(0)).join()).isNull();
            CompletableFuture<Void> written = client.set(keys.get(0), "value-" + keys.get(0), Duration.ZERO);
            awaitReceived(server, 2);
            Map<String, Object> rest = new LinkedHashMap<>();
            keys.subList(1, keys.size()).forEach(key -> rest.put(key, "value-" + key));
            CompletableFuture<BulkResult<Object>> queued = client.setMulti(rest, Duration.ZERO);

            assertThatThrownBy(written::join).cause().isInstanceOf(MemcachedConnectionException.class);
            BulkResult<Object> stored = queued.get(5, TimeUnit.SECONDS);
            assertThat(stored.errors()).isEmpty();
            assertThat(client.serverStates().get(0).failed()).isTrue();
            assertThat(server.receivedKeys()).as("what reached the dead server").containsExactly(keys.get(0), keys.get(0));
            for (String key : rest.keySet()) {
                assertThat(stored.outcome(key)).as(key).isEqualTo(Outcome.STORED);
                assertThat(memcached.first().textCommand("get " + key)).as(key).contains("value-" + key);
            }
        }
    }

    @Test
    void queuedRequestsStayWithTheirServerWhenItTakesANewConnectionAtOnce() throws Exception {
        // The first connection answers the warm-up read and hangs up on the next request; the
        // server keeps listening, and its next connection answers every set with success.
        try (FakeServer server = new FakeServer(connection -> {
                    if (connection > 0) {
                        return (out, opaque) -> {
                            out.write(FakeServer.response(0x01, 0, opaque, new byte[0], new byte[0]));
                            return true;
                        };
                    }
                    return answerOnceThenHangUp();
                });
                MemcachedClient client = client(server)) {
            List<String> keys = keysOwnedBy(client, server, "stay-");
            List<CompletableFuture<Void>> sets = writeOneThenQueueTheRest(client, server, keys);
            assertOnlyTheWrittenOneFails(sets);
            // Each queued set reached its own server once, on the new connection; none went elsewhere.
            assertThat(server.connectionsAccepted()).isEqualTo(2);
            assertThat(server.receivedKeys()).containsExactlyInAnyOrderElementsOf(
                    Stream.concat(Stream.of(keys.get(0)), keys.stream()).toList());
            assertThat(client.serverStates().get(0).failed()).isFalse();
            for (String key : keys) {
                assertThat(memcached.first().textCommand("get " + key)).as(key).noneMatch(line -> line.contains("value-"));
            }
        }
    }

    @Test
    void requestsQueuedForARemovedServerGoToTheirKeysNewOwner() throws Exception {
        CountDownLatch removed = new CountDownLatch(1);
        try (FakeServer server = new FakeServer(connection -> answerOnceThenHangUpAfter(removed));
                MemcachedClient client = client(server)) {
            List<String> keys = keysOwnedBy(client, server, "removed-");
            List<CompletableFuture<Void>> sets = writeOneThenQueueTheRest(client, server, keys);
            client.removeServer(server.address());
            removed.countDown();
            assertOnlyTheWrittenOneFails(sets);
            assertThat(server.receivedKeys()).as("what reached the removed server").containsExactly(keys.get(0), keys.get(0));
            for (String key : keys.subList(1, keys.size())) {
                assertThat(memcached.first().textCommand("get " + key)).as(key).contains("value-" + key);
            }
        }
    }

    @Test
    void withReplicasOnlyReadsQueuedForARemovedServerGoToTheNewOwnerNotWritesItMayHaveCopied() throws Exception {
        CountDownLatch removed = new CountDownLatch(1);
        try (FakeServer server = new FakeServer(connection -> answerOnceThenHangUpAfter(removed));
                MemcachedClient client = MemcachedClient.builder().servers(server.address(), memcached.first().address())
                        .replicas(1).connectionsPerServer(1, 1).operationTimeout(Duration.ofSeconds(3)).build()) {
            List<String> keys = keysOwnedBy(client, server, "replicated-");
            String counter = keys.get(1);
            String read = keys.get(2);
            memcached.first().textCommand("set " + counter + " 0 0 1\r\n5");
            memcached.first().textCommand("set " + read + " 0 0 4\r\ncopy");
            assertThat(client.get(keys.get(0)).join()).isNull();
            CompletableFuture<Void> written = client.set(keys.get(0), "value", Duration.ZERO);
            awaitReceived(server, 2);
            // Queued behind the written set; the counter's replica copy goes straight to the real server.
            CompletableFuture<Long> increment = client.incr(counter, 1);
            CompletableFuture<Object> value = client.get(read);
            client.removeServer(server.address());
            removed.countDown();
            assertThat(value.get(5, TimeUnit.SECONDS)).isEqualTo("copy");
            assertThatThrownBy(increment::join).cause().isInstanceOf(MemcachedConnectionException.class);
            assertThatThrownBy(written::join).cause().isInstanceOf(MemcachedConnectionException.class);
            // A write completes after its replica copies, so the counter's copy has run by now.
            assertThat(memcached.first().textCommand("get " + counter)).as("incremented once, by its replica copy").contains("6");
            assertThat(server.receivedKeys()).containsExactly(keys.get(0), keys.get(0));
        }
    }

    @Test
    void requestsHeldForAnUnreachableServerGoToTheirKeysNewOwnerWhenItIsRemoved() throws Exception {
        FakeServer closed = new FakeServer(connection -> FakeServer.HANG_UP);
        String unreachable = closed.address();
        closed.close();
        // Never marked failed: what is sent to it waits in its pool for a connection.
        try (MemcachedClient client = MemcachedClient.builder().servers(unreachable, memcached.first().address())
                .failureThreshold(1_000).reconnectBackoff(Duration.ofSeconds(30), Duration.ofSeconds(30))
                .operationTimeout(Duration.ofSeconds(20)).build()) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; keys.size() < QUEUED; i++) {
                if (client.ownerOf("held-" + i).toString().equals(unreachable)) {
                    keys.add("held-" + i);
                }
            }
            List<CompletableFuture<Void>> sets = keys.stream()
                    .map(key -> client.set(key, "value-" + key, Duration.ZERO)).toList();
            await().atMost(Duration.ofSeconds(5)).until(() -> client.serverDetails().get(0).pending() == 0
                    && sets.stream().noneMatch(CompletableFuture::isDone));
            assertThat(client.serverStates().get(0).failed()).isFalse();
            client.removeServer(unreachable);
            // Long before the operation timeout, which is how they ended before.
            CompletableFuture.allOf(sets.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
            for (String key : keys) {
                assertThat(memcached.first().textCommand("get " + key)).as(key).contains("value-" + key);
            }
        }
    }

    @ParameterizedTest(name = "text bulk reads {0}")
    @ValueSource(booleans = {true, false})
    void bulkSharesHeldForAnUnreachableServerGoToTheirKeysNewOwnersWhenItIsRemoved(boolean textBulkReads) throws Exception {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < 60; i++) {
            values.put("bulk-" + textBulkReads + "-" + i, "value-" + i);
        }
        // The real server will own every key: the read finds these there.
        values.forEach((key, value) -> memcached.first().textCommand("set " + key + " 0 0 " + value.length() + "\r\n" + value));
        BulkResult<Object> found = heldUntilItsServerIsRemoved(textBulkReads, values.keySet(), client -> client.getMulti(values.keySet()));
        assertThat(found.errors()).isEmpty();
        assertThat(found.values()).isEqualTo(values);
        // gets: the moved part asks for CAS tokens too (text: "gets", binary: the tokens of GETQ answers).
        BulkResult<Object> withCas = heldUntilItsServerIsRemoved(textBulkReads, values.keySet(),
                client -> client.getsMulti(values.keySet()));
        assertThat(withCas.values()).isEqualTo(values);
        for (String key : values.keySet()) {
            assertThat(withCas.get(key).cas()).as(key).isNotZero();
        }

        Map<String, Object> newValues = new LinkedHashMap<>();
        values.keySet().forEach(key -> newValues.put(key, "new-" + key));
        BulkResult<Object> stored = heldUntilItsServerIsRemoved(textBulkReads, values.keySet(),
                client -> client.setMulti(newValues, Duration.ZERO));
        assertThat(stored.errors()).isEmpty();
        for (String key : values.keySet()) {
            assertThat(stored.outcome(key)).as(key).isEqualTo(Outcome.STORED);
            assertThat(memcached.first().textCommand("get " + key)).as(key).contains("new-" + key);
        }
    }

    @Test
    void aHeldBulkShareSplitBetweenTwoNewOwnersGivesEveryKeyItsOwnValue() throws Exception {
        FakeServer closed = new FakeServer(connection -> FakeServer.HANG_UP);
        String unreachable = closed.address();
        closed.close();
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < 60; i++) {
            values.put("split-" + i, "value-" + i);
        }
        List<String> remaining = List.of(memcached.get(0).address(), memcached.get(1).address());
        try (MemcachedClient afterRemoval = MemcachedClient.builder().servers(remaining).build();
                MemcachedClient client = MemcachedClient.builder().servers(unreachable, remaining.get(0), remaining.get(1))
                        .failureThreshold(1_000).reconnectBackoff(Duration.ofSeconds(30), Duration.ofSeconds(30))
                        .operationTimeout(Duration.ofSeconds(20)).build()) {
            // Stored where the keys go once the unreachable server is removed.
            assertThat(afterRemoval.blocking().setMulti(values, Duration.ZERO).errors()).isEmpty();
            assertThat(values.keySet().stream().filter(key -> client.ownerOf(key).toString().equals(unreachable))
                    .map(afterRemoval::ownerOf).distinct()).as("new owners of the unreachable server's keys").hasSize(2);

            CompletableFuture<BulkResult<Object>> result = client.getMulti(values.keySet());
            await().atMost(Duration.ofSeconds(5)).until(() -> client.serverDetails().stream()
                    .filter(details -> !details.server().toString().equals(unreachable)).allMatch(details -> details.pending() == 0));
            assertThat(result).as("waiting for the unreachable server's share").isNotDone();
            client.removeServer(unreachable);

            BulkResult<Object> found = result.get(5, TimeUnit.SECONDS);
            assertThat(found.errors()).isEmpty();
            assertThat(found.values()).isEqualTo(values);
        }
    }

    /**
     * Makes a bulk call over keys of an unreachable server (never marked failed, so its share waits
     * in its pool) and the real one, removes the unreachable server, and returns the call's result.
     */
    private static BulkResult<Object> heldUntilItsServerIsRemoved(boolean textBulkReads, Collection<String> keys,
            Function<MemcachedClient, CompletableFuture<BulkResult<Object>>> call) throws Exception {
        FakeServer closed = new FakeServer(connection -> FakeServer.HANG_UP);
        String unreachable = closed.address();
        closed.close();
        try (MemcachedClient client = MemcachedClient.builder().servers(unreachable, memcached.first().address())
                .textBulkReads(textBulkReads).failureThreshold(1_000)
                .reconnectBackoff(Duration.ofSeconds(30), Duration.ofSeconds(30))
                .operationTimeout(Duration.ofSeconds(20)).build()) {
            assertThat(keys).as("keys of both servers")
                    .anyMatch(key -> client.ownerOf(key).toString().equals(unreachable))
                    .anyMatch(key -> !client.ownerOf(key).toString().equals(unreachable));
            CompletableFuture<BulkResult<Object>> result = call.apply(client);
            await().atMost(Duration.ofSeconds(5)).until(() -> client.serverDetails().get(1).pending() == 0);
            assertThat(result).as("waiting for the unreachable server's share").isNotDone();
            client.removeServer(unreachable);
            // Long before the operation timeout; before, the share failed: it was bound to its server.
            return result.get(5, TimeUnit.SECONDS);
        }
    }

    /** The fake server first, then the real one; one connection each, so requests queue on it. */
    private static MemcachedClient client(FakeServer server) {
        return MemcachedClient.builder().servers(server.address(), memcached.first().address())
                .connectionsPerServer(1, 1).operationTimeout(Duration.ofSeconds(3)).build();
    }

    /**
     * Takes one connection and stops listening (so reconnects are refused), answers the warm-up
     * read on it, then hangs up on the next request.
     */
    private static FakeServer dyingOnItsSecondRequest() throws IOException {
        AtomicReference<FakeServer> dying = new AtomicReference<>();
        dying.set(new FakeServer(connection -> {
            closeQuietly(dying.get());
            return answerOnceThenHangUp();
        }));
        return dying.get();
    }

    /** Answers the warm-up read, then hangs up on the next request. */
    private static FakeServer.Behaviour answerOnceThenHangUp() {
        int[] seen = {0};
        return (out, opaque) -> ++seen[0] == 1 && FakeServer.MISS.answer(out, opaque);
    }

    /**
     * Answers the warm-up read, then holds the next request unanswered until the test has removed
     * the server ({@code removed}), and hangs up.
     */
    private static FakeServer.Behaviour answerOnceThenHangUpAfter(CountDownLatch removed) {
        int[] seen = {0};
        return (out, opaque) -> {
            if (++seen[0] == 1) {
                return FakeServer.MISS.answer(out, opaque);
            }
            awaitQuietly(removed);
            return false;
        };
    }

    private static void assertOnlyTheWrittenOneFails(List<CompletableFuture<Void>> sets) {
        assertThatThrownBy(sets.get(0)::join).cause().isInstanceOf(MemcachedConnectionException.class);
        sets.subList(1, sets.size()).forEach(CompletableFuture::join);
    }

    /**
     * Reads once (the connection is then open), sets the first key and waits until the server has
     * it (so it was written alone), then sets the rest: they queue behind it, or, once the server
     * has hung up, go to the pool. Either way none of them is written on the first connection.
     */
    private static List<CompletableFuture<Void>> writeOneThenQueueTheRest(MemcachedClient client, FakeServer server,
            List<String> keys) {
        assertThat(client.get(keys.get(0)).join()).isNull();
        List<CompletableFuture<Void>> sets = new ArrayList<>();
        sets.add(client.set(keys.get(0), "value-" + keys.get(0), Duration.ZERO));
        awaitReceived(server, 2);
        keys.subList(1, keys.size()).forEach(key -> sets.add(client.set(key, "value-" + key, Duration.ZERO)));
        return sets;
    }

    private static List<String> keysOwnedBy(MemcachedClient client, FakeServer server, String prefix) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < QUEUED + 1; i++) {
            if (client.ownerOf(prefix + i).toString().equals(server.address())) {
                keys.add(prefix + i);
            }
        }
        return keys;
    }

    /**
     * Polls every millisecond: a connection writes what is queued once nothing has been written or
     * answered on it for 100 ms, and the requests queued after this must not be written.
     */
    private static void awaitReceived(FakeServer server, int requests) {
        await().pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(5)).until(() -> server.receivedKeys().size() == requests);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
