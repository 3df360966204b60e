package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.transcoder.CachedData;
import org.junit.jupiter.api.Test;

/**
 * The decoder hands every whole response of a read on at once and keeps a partial one: responses
 * that arrive coalesced, split mid-header and split mid-body still each reach their own request,
 * with every field of the header (a hit's 64-bit CAS token, its flags).
 * (Text answers to bulk reads are split the same way in {@link MalformedTextAnswerTest}.)
 */
class ResponseFramingTest {

    private static final int GETQ = 0x09;
    private static final int NOOP = 0x0a;

    @Test
    void aHitsTokenOfAllSixtyFourBitsAndItsFlagsReachTheCaller() throws Exception {
        // memcached's tokens count up from 1, so a real server gives none this large in a test's time.
        long token = 0xFEDC_BA98_7654_3210L;
        try (ScriptedConnection listener = ScriptedConnection.listen();
                MemcachedClient client = MemcachedClient.builder().servers(listener.address())
                        .connectionsPerServer(1, 1).operationTimeout(Duration.ofSeconds(10)).build();
                Socket server = listener.accept()) {
            DataInputStream in = new DataInputStream(server.getInputStream());
            OutputStream out = server.getOutputStream();
            CompletableFuture<CasValue<CachedData>> answer = client.gets("k", RawTranscoder.RAW);

            byte[] hit = FakeServer.response(0x00, 0, FakeServer.readRequest(in), new byte[0], new byte[] {0, 0, 0, 7, 'v'});
            hit[4] = 4;
            ByteBuffer.wrap(hit).putLong(16, token);
            out.write(hit);
            out.flush();

            CasValue<CachedData> read = answer.get(10, TimeUnit.SECONDS);
            assertThat(read.cas()).isEqualTo(token);
            assertThat(read.value().flags()).isEqualTo(7);
            assertThat(read.value().bytes()).containsExactly('v');
        }
    }

    @Test
    void coalescedAndSplitResponsesEachReachTheirRequest() throws Exception {
        try (ScriptedConnection listener = ScriptedConnection.listen();
                MemcachedClient client = MemcachedClient.builder().servers(listener.address())
                        .connectionsPerServer(1, 1).operationTimeout(Duration.ofSeconds(10)).textBulkReads(false).build();
                Socket server = listener.accept()) {
            server.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(server.getInputStream());
            OutputStream out = server.getOutputStream();
            List<String> keys = List.of("a", "b", "c");
            CompletableFuture<BulkResult<Object>> answer = client.getMulti(keys);

            ByteArrayOutputStream replies = new ByteArrayOutputStream();
            for (String key : keys) {
                int opaque = FakeServer.readRequest(in);
                replies.write(FakeServer.response(GETQ, 0, opaque, new byte[0],
                        ("value of " + key).getBytes(StandardCharsets.UTF_8)));
            }
            replies.write(FakeServer.response(NOOP, 0, FakeServer.readRequest(in), new byte[0], new byte[0]));
            byte[] bytes = replies.toByteArray();
            int hit = 24 + "value of a".length();
            // Two hits and half the third's header; the third but its last 6 bytes; those and most
            // of the NOOP's header; the NOOP's last 5 bytes.
            int[] cuts = {0, 2 * hit + 12, bytes.length - 30, bytes.length - 5, bytes.length};
            for (int i = 0; i + 1 < cuts.length; i++) {
                out.write(bytes, cuts[i], cuts[i + 1] - cuts[i]);
                out.flush();
            }

            BulkResult<Object> result = answer.get(10, TimeUnit.SECONDS);
            assertThat(result.values()).containsExactly(
                    entry("a", "value of a"), entry("b", "value of b"),
                    entry("c", "value of c"));
        }
    }
}
