package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * memcached at its connection limit ({@code -c}) accepts a connection, writes
 * {@code ERROR Too many open connections} and closes it without reading a byte, whatever protocol
 * the client meant to speak. The requests written to such a connection were never executed, so
 * they are answered on the connection the client kept; the refused one is a failed connect (the
 * pool backs off from opening more), not a server breaking the binary protocol.
 */
class ConnectionLimitTest {

    private static final String REFUSAL = "ERROR Too many open connections";

    private final List<Socket> others = new ArrayList<>();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(1,
            MemcachedOptions.defaults().withThreads(1).withExtraArguments("-c", "40"));

    @Test
    void callsSentOnAConnectionRefusedAtTheLimitAreAnsweredOnTheOneKept() throws Exception {
        MemcachedProcess server = memcached.first();
        // One connection at first, a second once one is pending on it: the second meets the limit.
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address()).connectionsPerServer(1, 2)
                .pipelineDepth(1).textBulkReads(false).failureThreshold(1000).operationTimeout(Duration.ofSeconds(5)).build()) {
            client.blocking().set("limit:a", "a", Duration.ZERO);
            fillUp(server);

            List<CompletableFuture<Object>> gets = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                gets.add(client.get("limit:a"));
            }
            for (CompletableFuture<Object> get : gets) {
                assertThat(get.get(10, TimeUnit.SECONDS)).isEqualTo("a");
            }
            assertThat(client.serverStates()).noneMatch(ServerState::failed);
        }
        closeOthers();
        // The probe that found the limit, and at least one connection of the client's.
        assertThat(Long.parseLong(server.stats().get("rejected_connections"))).isGreaterThanOrEqualTo(2);
    }

    /**
     * memcached writes its refusal and closes at once; when the client's request arrives before that
     * close, the server's kernel resets the connection and may drop the unsent line with it, so the
     * caller then learns only that the connection was lost. Each attempt must be a connection
     * error, not a protocol one, and one of a few attempts must carry the refusal.
     */
    @Test
    void withNoOtherConnectionTheCallerLearnsThatTheServerRefusedIt() throws Exception {
        MemcachedProcess server = memcached.first();
        fillUp(server);
        List<String> messages = new ArrayList<>();
        for (int attempt = 0; attempt < 5 && messages.stream().noneMatch(m -> m.contains(REFUSAL)); attempt++) {
            try (MemcachedClient client = MemcachedClient.builder().servers(server.address()).connectionsPerServer(1, 1)
                    .textBulkReads(false).failover(false).operationTimeout(Duration.ofSeconds(5)).build()) {
                assertThatThrownBy(() -> client.get("limit:b").get(10, TimeUnit.SECONDS)).cause()
                        .isExactlyInstanceOf(MemcachedConnectionException.class)
                        .isNotInstanceOf(MemcachedProtocolException.class)
                        .hasMessageContaining(server.address())
                        .satisfies(error -> messages.add(error.getMessage()));
            }
        }
        assertThat(messages).anyMatch(message -> message.contains("refused the connection: " + REFUSAL));
    }

    /**
     * The text connection a bulk read opens meets the limit while the binary one was opened before:
     * the read goes over binary, now and while the text pool backs off, as it would with
     * {@code textBulkReads(false)}, rather than failing (or, with failover, waiting past its deadline).
     */
    @Test
    void bulkReadsGoOverBinaryWhileTheServerRefusesTheirTextConnection() throws Exception {
        MemcachedProcess server = memcached.first();
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address()).connectionsPerServer(1, 1)
                .failureThreshold(1000).operationTimeout(Duration.ofSeconds(5)).build()) {
            client.blocking().set("limit:a", "a", Duration.ZERO);
            fillUp(server);

            for (int round = 0; round < 3; round++) {
                BulkResult<Object> read = client.getMulti(List.of("limit:a", "limit:missing")).get(10, TimeUnit.SECONDS);
                assertThat(read.errors()).as("round %d", round).isEmpty();
                assertThat(read.values()).as("round %d", round).isEqualTo(Map.of("limit:a", "a"));
            }
            assertThat(client.serverStates()).noneMatch(ServerState::failed);
        }
    }

    /** Closes the connections that filled the server, and waits until memcached has closed them too. */
    @AfterEach
    void closeOthers() throws IOException {
        for (Socket other : others) {
            other.close();
        }
        others.clear();
        MemcachedProcess server = memcached.first();
        // Its listener and the stats request's own connection remain.
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> Integer.parseInt(server.stats().get("curr_connections")) <= 2);
    }

    /** Opens connections until memcached refuses one: the server is then at its limit. */
    private void fillUp(MemcachedProcess server) throws IOException {
        for (int i = 0; i < 100; i++) {
            Socket other = new Socket(server.host(), server.port());
            other.setSoTimeout(5000);
            OutputStream out = other.getOutputStream();
            out.write("version\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = readLine(other.getInputStream());
            if (answer.equals(REFUSAL)) {
                other.close();
                return;
            }
            assertThat(answer).startsWith("VERSION ");
            others.add(other);
        }
        throw new IllegalStateException("memcached with -c 40 accepted 100 connections");
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
