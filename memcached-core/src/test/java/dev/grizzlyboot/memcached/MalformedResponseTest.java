package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Garbage, truncated and mismatched answers (from a fake server, since real memcached never
 * sends them): the connection is closed, every operation waiting on it fails promptly with a
 * typed error, and the pool's next connection serves normally.
 */
class MalformedResponseTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** Requests in flight when the fault hits; the fake server misbehaves only once it has them all. */
    private static final int REQUESTS = 50;

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
            assertFailsPromptly(client, MemcachedConnectionException.class, "lost");
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

    private static MemcachedClient client(FakeServer server) {
        return MemcachedClient.builder().servers(server.address()).connectionsPerServer(1, 1)
                .operationTimeout(TIMEOUT).build();
    }

    private static void assertFailsPromptly(MemcachedClient client, Class<? extends Exception> type, String message) {
        List<CompletableFuture<Object>> pending = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < REQUESTS; i++) {
            pending.add(client.get("key-" + i));
        }
        for (CompletableFuture<Object> future : pending) {
            assertThatThrownBy(future::join).isInstanceOf(CompletionException.class).cause()
                    .isInstanceOf(type).hasMessageContaining(message);
        }
        // Promptly: well before the operation timeout would have fired.
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(TIMEOUT.toMillis() / 2);
    }
}
