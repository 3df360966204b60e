package dev.grizzlyboot.memcached;

import static dev.grizzlyboot.memcached.RawTranscoder.RAW;
import static dev.grizzlyboot.memcached.TextFakeServer.ascii;
import static dev.grizzlyboot.memcached.TextFakeServer.join;
import static dev.grizzlyboot.memcached.TextFakeServer.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import dev.grizzlyboot.memcached.transcoder.CachedData;
import org.junit.jupiter.api.Test;

/**
 * Wrong, garbled and split answers to text-protocol bulk reads (from a fake server, since real
 * memcached never sends the wrong ones): an answer is matched by its key, in the order asked, so a
 * value for a key not asked for, or out of order, fails the read with a protocol error; garbage
 * fails it before a value is allocated; an answer no read asked for closes the connection; an error
 * line fails only that read; the pool's next connection (or the same one, after an error line)
 * serves the next read.
 */
class MalformedTextAnswerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final byte[] A_THEN_END = join(value("a", 7, "hello"), ascii("END\r\n"));

    @Test
    void aValueForAKeyNotAskedForFailsTheReadAndTheNextConnectionServes() throws Exception {
        assertFirstReadFailsThenTheNextServes(join(value("other", 0, "x"), ascii("END\r\n")), MemcachedProtocolException.class,
                "a value for 'other', which getMulti of 2 keys did not ask for", 2);
    }

    @Test
    void valuesOutOfTheOrderAskedAreAProtocolError() throws Exception {
        assertFirstReadFailsThenTheNextServes(join(value("b", 0, "x"), value("a", 0, "y"), ascii("END\r\n")),
                MemcachedProtocolException.class, "a value for 'a', which getMulti of 2 keys did not ask for after 'b'", 2);
    }

    @Test
    void aLineNoGetAnswerHasIsGarbage() throws Exception {
        assertFirstReadFailsThenTheNextServes(ascii("HTTP/1.1 400 Bad Request\r\n\r\n"), MemcachedProtocolException.class,
                "an answer line a get never has: 'HTTP/1.1 400 Bad Request'", 2);
    }

    @Test
    void aLineThatOnlyBeginsWithEndIsGarbage() throws Exception {
        assertFirstReadFailsThenTheNextServes(ascii("ENDING\r\n"), MemcachedProtocolException.class,
                "an answer line a get never has: 'ENDING'", 2);
    }

    @Test
    void aValueLengthOverTheLimitIsRejectedBeforeAllocating() throws Exception {
        assertFirstReadFailsThenTheNextServes(ascii("VALUE a 0 2000000000\r\n"), MemcachedProtocolException.class,
                "flags, length or CAS field that is not a number in range", 2);
    }

    @Test
    void flagsOutOfRangeAreGarbage() throws Exception {
        assertFirstReadFailsThenTheNextServes(ascii("VALUE a 4294967296 1\r\nx\r\nEND\r\n"), MemcachedProtocolException.class,
                "flags, length or CAS field that is not a number in range", 2);
    }

    @Test
    void aValueNotFollowedByCrlfIsGarbage() throws Exception {
        assertFirstReadFailsThenTheNextServes(ascii("VALUE a 0 1\r\nxy\r\nEND\r\n"), MemcachedProtocolException.class,
                "a value of 1 bytes not followed by CRLF", 2);
    }

    @Test
    void aLineThatNeverEndsIsGarbage() throws Exception {
        assertFirstReadFailsThenTheNextServes(ascii("VALUE " + "k".repeat(600)), MemcachedProtocolException.class,
                "an answer line longer than 512 bytes", 2);
    }

    @Test
    void aServerErrorFailsOnlyThatReadAndTheConnectionCarriesOn() throws Exception {
        assertFirstReadFailsThenTheNextServes(ascii("SERVER_ERROR out of memory writing get response\r\n"),
                MemcachedStatusException.class, "failed with INTERNAL_ERROR: SERVER_ERROR out of memory writing get response", 1);
    }

    @Test
    void anAnswerNoReadAskedForClosesTheConnection() throws Exception {
        try (TextFakeServer server = new TextFakeServer(1 << 16,
                (command, verb, keys) -> command == 0 ? join(A_THEN_END, A_THEN_END) : A_THEN_END);
                MemcachedClient client = client(server)) {
            assertThat(client.getMulti(List.of("a"), RAW).get().get("a").value().bytes()).isEqualTo(ascii("hello"));
            // The second, unasked answer closes its connection (the only text one, kept open otherwise):
            // reads go on a new connection, and never get a value that is not theirs.
            await().atMost(TIMEOUT).ignoreExceptions().until(() -> {
                BulkResult<CachedData> read = client.getMulti(List.of("a", "b"), RAW).get();
                assertThat(read.outcome("b")).isEqualTo(Outcome.NOT_FOUND);
                return read.outcome("a") == Outcome.FOUND && server.textConnectionsAccepted() == 2;
            });
        }
    }

    @Test
    void answersSplitIntoSingleBytesDecodeWholeWithEveryFieldAtItsLimits() throws Exception {
        String longKey = "k".repeat(250);
        try (TextFakeServer server = new TextFakeServer(1, (command, verb, keys) -> join(
                ascii(verb.equals("gets") ? "VALUE a 0 0 18446744073709551615\r\n\r\n" : "VALUE a 4294967295 0\r\n\r\n"),
                ascii("VALUE " + longKey + " 0 3" + (verb.equals("gets") ? " 1" : "") + "\r\nabc\r\n"),
                ascii("END\r\n")));
                MemcachedClient client = client(server)) {
            BulkResult<CachedData> read = client.getMulti(List.of("a", "missing", longKey), RAW).get();
            assertThat(read.get("a").value().flags()).isEqualTo(-1);
            assertThat(read.get("a").value().bytes()).isEmpty();
            assertThat(read.get(longKey).value().bytes()).isEqualTo(ascii("abc"));
            assertThat(read.outcome("missing")).isEqualTo(Outcome.NOT_FOUND);
            BulkResult<Object> withCas = client.getsMulti(List.of("a", "missing", longKey)).get();
            assertThat(withCas.get("a").value()).isEqualTo("");
            assertThat(withCas.get("a").cas()).isEqualTo(-1L);
            assertThat(withCas.get(longKey).cas()).isEqualTo(1L);
            assertThat(withCas.outcome("missing")).isEqualTo(Outcome.NOT_FOUND);
        }
    }

    @Test
    void aLargeValueArrivingInPiecesDecodesWhole() throws Exception {
        byte[] large = new byte[600_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31);
        }
        try (TextFakeServer server = new TextFakeServer(997, (command, verb, keys) -> join(
                ascii("VALUE big 5 " + large.length + "\r\n"), large, ascii("\r\n"), value("small", 6, "after"), ascii("END\r\n")));
                MemcachedClient client = client(server)) {
            BulkResult<CachedData> read = client.getMulti(List.of("big", "small"), RAW).get();
            assertThat(read.get("big").value().bytes()).isEqualTo(large);
            assertThat(read.get("big").value().flags()).isEqualTo(5);
            assertThat(read.get("small").value().bytes()).isEqualTo(ascii("after"));
        }
    }

    /**
     * A server that closes a text connection after part of its answer to the check spoke the text
     * protocol: it died answering, and is not one that refuses text (such as memcached
     * {@code -B binary}, which closes without a byte). Its bulk reads stay on text connections, so
     * once it answers again they are served there (this fake leaves binary requests unanswered).
     */
    @Test
    void aServerThatHangsUpHalfwayThroughTheCheckStillGetsTextBulkReads() throws Exception {
        try (TextFakeServer server = new TextFakeServer(1 << 16, (command, verb, keys) -> A_THEN_END, connection -> connection == 0);
                MemcachedClient client = MemcachedClient.builder().servers(server.address()).failover(false)
                        .operationTimeout(Duration.ofSeconds(1)).connectionsPerServer(1, 1).build()) {
            // The read made while the check dies may fail; those after the pool's reconnect back-off must be served.
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                BulkResult<CachedData> read = client.getMulti(List.of("a", "b"), RAW).get();
                return read.errors().isEmpty() && read.get("a") != null && Arrays.equals(read.get("a").value().bytes(), ascii("hello"));
            });
            assertThat(server.textConnectionsAccepted()).isEqualTo(2);
        }
    }

    private static void assertFirstReadFailsThenTheNextServes(byte[] firstAnswer, Class<? extends MemcachedException> type,
            String message, int textConnections) throws Exception {
        try (TextFakeServer server = new TextFakeServer(1 << 16, (command, verb, keys) -> command == 0 ? firstAnswer : A_THEN_END);
                MemcachedClient client = client(server)) {
            long start = System.nanoTime();
            BulkResult<CachedData> failed = client.getMulti(List.of("a", "b"), RAW).get();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.dividedBy(2));
            for (String key : List.of("a", "b")) {
                assertThat(failed.outcome(key)).isEqualTo(Outcome.ERROR);
                assertThat(failed.get(key).error()).isInstanceOf(type).hasMessageContaining(message);
            }
            BulkResult<CachedData> next = client.getMulti(List.of("a", "b"), RAW).get();
            assertThat(next.get("a").value().bytes()).isEqualTo(ascii("hello"));
            assertThat(next.get("a").value().flags()).isEqualTo(7);
            assertThat(next.outcome("b")).isEqualTo(Outcome.NOT_FOUND);
            assertThat(server.textConnectionsAccepted()).isEqualTo(textConnections);
        }
    }

    private static MemcachedClient client(TextFakeServer server) {
        return MemcachedClient.builder().servers(server.address()).failover(false).operationTimeout(TIMEOUT)
                .connectionsPerServer(1, 1).build();
    }
}
