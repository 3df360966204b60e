package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import dev.grizzlyboot.testsupport.Stalls;
import org.junit.jupiter.api.Test;

/**
 * Garbage, truncated and mismatched answers (wrong opaque, opcode or key, from a fake server,
 * since real memcached never sends them): the connection is closed, every operation waiting on
 * it fails promptly with a typed error, the failures count towards marking the server failed, and
 * the pool's next connection serves normally. A server that hangs up at once is backed off.
 */
class MalformedResponseTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** Requests in flight when the fault hits; the fake server misbehaves only once it has them all. */
    private static final int REQUESTS = 50;
    private static final int GETQ = 0x09;
    private static final int NOOP = 0x0a;

    @Test
    void garbageBytesFailEveryPendingOperationPromptlyAndThePoolReplacesTheConnection() throws Exception {
        try (FakeServer server = new FakeServer(connection -> connection == 0
                ? FakeServer.afterRequests(REQUESTS, (out, opaque) -> {
                    out.write("HTTP/1.1 400 Bad Request\r\n\r\n this is not memcached".getBytes());
                    return true;
                })
                : FakeServer.MISS);
                MemcachedClient client = client(server)) {
            assertFailsPromptly(client, MemcachedProtocolException.class, "bad magic byte");
            assertThat(client.blocking().get("after")).isNull();
            assertThat(server.connectionsAccepted()).isEqualTo(2);
        }
    }

    @Test
    void truncatedAnswerThenCloseFailsPendingOperations() throws Exception {
        try (FakeServer server = new FakeServer(connection -> connection == 0
                ? FakeServer.afterRequests(REQUESTS, (out, opaque) -> {
                    out.write(FakeServer.header(0, opaque, 100), 0, 20);
                    return false;
                })
                : FakeServer.MISS);
                MemcachedClient client = client(server)) {
            assertFailsPromptly(client, MemcachedConnectionException.class, "lost: the server closed it");
            assertThat(client.blocking().get("after")).isNull();
        }
    }

    @Test
    void anAnswerToARequestNeverSentIsAProtocolError() throws Exception {
        try (FakeServer server = new FakeServer(connection -> connection == 0
                ? FakeServer.afterRequests(REQUESTS, (out, opaque) -> {
                    out.write(FakeServer.header(0x01, opaque + 1000, 0));
                    return true;
                })
                : FakeServer.MISS);
                MemcachedClient client = client(server)) {
            assertFailsPromptly(client, MemcachedProtocolException.class, "does not answer");
            assertThat(client.blocking().get("after")).isNull();
        }
    }

    @Test
    void anAnswerNumberedOnePastTheRequestIsAProtocolError() throws Exception {
        assertGetRejectedThenTheNextConnectionServes(opaque -> FakeServer.header(0x01, opaque + 1, 0), "does not answer");
    }

    @Test
    void anAnswerNumberedBeforeTheRequestIsAProtocolError() throws Exception {
        // What a second answer to the request before it looks like.
        assertGetRejectedThenTheNextConnectionServes(opaque -> FakeServer.header(0x01, opaque - 1, 0), "does not answer");
    }

    @Test
    void aKeyLongerThanTheBodyIsGarbage() throws Exception {
        assertGetRejectedThenTheNextConnectionServes(opaque -> {
            // A 4-byte body whose header says it holds a 10-byte key.
            byte[] reply = Arrays.copyOf(FakeServer.header(0x01, opaque, 4), 28);
            reply[3] = 10;
            return reply;
        }, "key and extras (10 bytes) longer than the body (4)");
    }

    @Test
    void aReplyWithAnotherOpcodeIsAProtocolErrorNotAValue() throws Exception {
        // Same opaque, status 0, but VERSION-shaped: once taken as the key's value.
        assertGetRejectedThenTheNextConnectionServes(opaque -> FakeServer.response(0x0b, 0, opaque, new byte[0], "1.6.18".getBytes()),
                "opcode 0x0b answers a GET request");
    }

    @Test
    void aBulkReplyWithAnotherOpcodeReportsNoKeyFound() throws Exception {
        try (FakeServer server = new FakeServer(connection -> replying(
                    opaque -> FakeServer.response(0x0b, 0, opaque, new byte[0], "1.6.18".getBytes())));
                MemcachedClient client = client(server)) {
            CompletableFuture<BulkResult<Object>> result = client.getMulti(List.of("a", "b", "c"));
            try {
                BulkResult<Object> answers = result.join();
                assertThat(answers.asMap().values()).hasSize(3).allSatisfy(key -> {
                    assertThat(key.outcome()).isEqualTo(Outcome.ERROR);
                    assertThat(key.error()).isInstanceOf(MemcachedProtocolException.class);
                });
            } catch (CompletionException e) {
                assertThat(e.getCause()).isInstanceOf(MemcachedProtocolException.class).hasMessageContaining("opcode 0x0b");
            }
        }
    }

    @Test
    void aLateHitForABatchAlreadyAnsweredIsNotTakenAsTheNextBatchsAnswer() throws Exception {
        try (ScriptedConnection listener = ScriptedConnection.listen();
                MemcachedClient client = client(listener.address());
                Socket server = listener.accept()) {
            DataInputStream in = new DataInputStream(server.getInputStream());
            OutputStream out = server.getOutputStream();
            CompletableFuture<BulkResult<Object>> first = client.getMulti(List.of("a", "b"));
            int[] firstOpaques = {FakeServer.readRequest(in), FakeServer.readRequest(in), FakeServer.readRequest(in)};
            // Both keys missed: only the terminator is answered.
            out.write(FakeServer.response(NOOP, 0, firstOpaques[2], new byte[0], new byte[0]));
            out.flush();
            assertThat(first.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).values()).isEmpty();

            CompletableFuture<BulkResult<Object>> second = client.getMulti(List.of("c", "d"));
            FakeServer.readRequest(in);
            FakeServer.readRequest(in);
            int terminator = FakeServer.readRequest(in);
            // A hit for the first batch's 'b', then this batch's terminator: the hit is no answer of this batch's.
            out.write(FakeServer.response(GETQ, 0, firstOpaques[1], new byte[0], "value of b".getBytes(StandardCharsets.UTF_8)));
            out.write(FakeServer.response(NOOP, 0, terminator, new byte[0], new byte[0]));
            out.flush();

            BulkResult<Object> result = second.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(result.values()).isEmpty();
            assertThat(result.errors().values()).hasSize(2).allSatisfy(error -> assertThat(error)
                    .isInstanceOf(MemcachedProtocolException.class).hasMessageContaining("does not answer"));
        }
    }

    @Test
    void aReplyCarryingAKeyTheProtocolNeverReturnsIsAProtocolError() throws Exception {
        assertGetRejectedThenTheNextConnectionServes(opaque -> FakeServer.response(0x00, 0x01, opaque, "someone-else".getBytes(), new byte[0]),
                "carries a key");
    }

    @Test
    void protocolErrorsCountTowardsMarkingTheServerFailed() throws Exception {
        try (FakeServer server = new FakeServer(connection -> (out, opaque) -> {
                    out.write(FakeServer.header(0x01, opaque + 1000, 0));
                    return true;
                });
                MemcachedClient client = MemcachedClient.builder().servers(server.address()).connectionsPerServer(1, 1)
                        .failureThreshold(2).healthCheckInterval(Duration.ofSeconds(30), Duration.ofSeconds(30))
                        .reconnectBackoff(Duration.ofMillis(1), Duration.ofMillis(1)).operationTimeout(TIMEOUT).build()) {
            await().atMost(TIMEOUT).untilAsserted(() -> {
                assertThatThrownBy(() -> client.get("k").join()).cause().isInstanceOfAny(MemcachedProtocolException.class,
                        ServerUnavailableException.class, MemcachedConnectionException.class);
                assertThat(client.serverStates().get(0).failed()).isTrue();
            });
            assertThat(client.serverStates().get(0).lastError()).isInstanceOf(MemcachedProtocolException.class);
        }
    }

    @Test
    void aServerThatHangsUpOnEveryConnectionIsBackedOffNotHammered() throws Exception {
        Duration firstBackoff = Duration.ofMillis(100);
        // Before the client is built: it may connect at once.
        long start = System.nanoTime();
        try (FakeServer server = new FakeServer(connection -> FakeServer.HANG_UP);
                MemcachedClient client = MemcachedClient.builder().servers(server.address()).connectionsPerServer(1, 1)
                        .reconnectBackoff(firstBackoff, Duration.ofSeconds(5))
                        .failureThreshold(1000).operationTimeout(TIMEOUT).build()) {
            int failed = 0;
            while (failed < 20 || System.nanoTime() - start < 3 * firstBackoff.toNanos()) {
                assertThatThrownBy(() -> client.get("k").join()).cause().isInstanceOf(MemcachedConnectionException.class);
                failed++;
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            // One quick retry, then a back-off of 100 ms, doubling: a few connects, not one per call. The
            // bound is the schedule's for the time the calls took, however slowly this machine ran them.
            assertThat(server.connectionsAccepted()).as("connects in %d ms for %d calls", elapsed.toMillis(), failed)
                    .isBetween(2, connectsAllowed(firstBackoff, elapsed));
        }
    }

    /** Connects the back-off schedule allows within {@code elapsed}: the first, one quick retry, then one per doubling back-off. */
    private static int connectsAllowed(Duration firstBackoff, Duration elapsed) {
        int connects = 2;
        for (long at = firstBackoff.toNanos(), backoff = at; at <= elapsed.toNanos(); backoff *= 2, at += backoff) {
            connects++;
        }
        return connects;
    }

    @Test
    void hugeBodyLengthIsRejectedBeforeAllocating() throws Exception {
        try (FakeServer server = new FakeServer(connection -> connection == 0
                ? FakeServer.afterRequests(REQUESTS, (out, opaque) -> {
                    out.write(FakeServer.header(0, opaque, Integer.MAX_VALUE));
                    return true;
                })
                : FakeServer.MISS);
                MemcachedClient client = client(server)) {
            assertFailsPromptly(client, MemcachedProtocolException.class, "exceeds the limit");
            assertThat(client.blocking().get("after")).isNull();
        }
    }

    @Test
    void aBodyOfTheLargestLengthAcceptedIsAValueAndOneByteMoreIsGarbage() throws Exception {
        // The largest item plus 64 KiB for its key and extras.
        int largest = 1024 + 64 * 1024;
        int[] answered = {0};
        try (FakeServer server = new FakeServer(connection -> connection == 0
                    ? replying(opaque -> FakeServer.response(0x00, 0, opaque, new byte[0], new byte[answered[0]++ == 0 ? largest : largest + 1]))
                    : FakeServer.MISS);
                MemcachedClient client = MemcachedClient.builder().servers(server.address()).connectionsPerServer(1, 1)
                        .maxItemSize(1024).operationTimeout(TIMEOUT).textBulkReads(false).build()) {
            assertThat(client.get("k", RawTranscoder.RAW).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).bytes()).hasSize(largest);
            assertThatThrownBy(() -> client.get("k").join()).cause().isInstanceOf(MemcachedProtocolException.class)
                    .hasMessageContaining("exceeds the limit of " + largest);
            assertThat(client.blocking().get("after")).isNull();
        }
    }

    /** The first connection answers every request with {@code reply}; the next ones are healthy. */
    private static void assertGetRejectedThenTheNextConnectionServes(IntFunction<byte[]> reply, String message) throws Exception {
        try (FakeServer server = new FakeServer(connection -> connection == 0 ? replying(reply) : FakeServer.MISS);
                MemcachedClient client = client(server)) {
            assertThatThrownBy(() -> client.get("k").join()).cause().isInstanceOf(MemcachedProtocolException.class)
                    .hasMessageContaining(message);
            assertThat(client.blocking().get("after")).isNull();
        }
    }

    private static FakeServer.Behaviour replying(IntFunction<byte[]> reply) {
        return (out, opaque) -> {
            out.write(reply.apply(opaque));
            return true;
        };
    }

    /** A client whose bulk reads are binary too: the fake server speaks only binary (text answers: {@link MalformedTextAnswerTest}). */
    private static MemcachedClient client(FakeServer server) {
        return client(server.address());
    }

    private static MemcachedClient client(String address) {
        return MemcachedClient.builder().servers(address).connectionsPerServer(1, 1)
                .operationTimeout(TIMEOUT).textBulkReads(false).build();
    }

    private static void assertFailsPromptly(MemcachedClient client, Class<? extends Exception> type, String message) {
        List<CompletableFuture<Object>> pending = new ArrayList<>();
        try (Stalls stalls = new Stalls()) {
            long start = System.nanoTime();
            for (int i = 0; i < REQUESTS; i++) {
                pending.add(client.get("key-" + i));
            }
            for (CompletableFuture<Object> future : pending) {
                assertThatThrownBy(future::join).isInstanceOf(CompletionException.class).cause()
                        .isInstanceOf(type).hasMessageContaining(message);
            }
            long end = System.nanoTime();
            // Promptly: well before the operation timeout would have fired, counting only the time the client ran.
            assertThat(TimeUnit.NANOSECONDS.toMillis(end - start - stalls.stalledNanos(start, end)))
                    .as("ms to fail them all, not counting the %d ms this JVM was stalled",
                            TimeUnit.NANOSECONDS.toMillis(stalls.stalledNanos(start, end)))
                    .isLessThan(TIMEOUT.toMillis() / 2);
        }
    }
}
