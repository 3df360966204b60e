package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.grizzlyboot.memcached.cluster.ServerListChange;
import dev.grizzlyboot.memcached.transcoder.CachedData;
import dev.grizzlyboot.memcached.transcoder.DefaultTranscoder;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad keys and values get typed errors, nothing stored is lost, and the connection in use stays
 * the same one (the server's connection count does not move).
 */
class BadInputTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    static MemcachedClient client;
    static BlockingMemcachedClient blocking;

    @BeforeAll
    static void connect() {
        client = MemcachedClient.builder().servers(memcached.addressList()).connectionsPerServer(1, 1).build();
        blocking = client.blocking();
        blocking.set("kept", "safe", Duration.ZERO);
    }

    @AfterAll
    static void close() {
        client.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "tab\there", "new\nline", "nul\u0000byte", "del\u007f"})
    void keysMemcachedWouldRejectFailBeforeSending(String key) {
        String connectionsBefore = totalConnections();
        assertThatThrownBy(() -> blocking.set(key, "v", Duration.ZERO)).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> blocking.get(key)).isInstanceOf(InvalidKeyException.class);
        assertStillHealthy(connectionsBefore);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\uD800", "\uDC00b", "x\uDBFF\uDBFFy", "?\uDFFF?"})
    void keysWithAnUnpairedSurrogateFailInsteadOfBecomingAnotherKey(String key) {
        // getBytes(UTF_8) writes '?' for the surrogate: the item of this other key.
        String alias = new String(key.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        blocking.set(alias, "someone else's", Duration.ZERO);
        assertThatThrownBy(() -> blocking.get(key)).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("unpaired surrogate");
        assertThatThrownBy(() -> blocking.set(key, "v", Duration.ZERO)).isInstanceOf(InvalidKeyException.class);
        assertThat(blocking.get(alias)).isEqualTo("someone else's");
        // A pair is one code point, four bytes of UTF-8, and a key of its own.
        String paired = key.replaceAll("[\uD800-\uDFFF]", "\uD83D\uDE00");
        blocking.set(paired, "mine", Duration.ZERO);
        assertThat(blocking.get(paired)).isEqualTo("mine");
    }

    /** A lookup that hashed a refused key's {@code '?'} form would name the owner of another key. */
    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "nul\u0000byte", "a\uD800", "\uDC00b", "x\uDBFF\uDBFFy"})
    void routingLookupsRefuseTheKeysCallsRefuse(String key) {
        assertRoutingLookupsRefuse(key);
    }

    @Test
    void routingLookupsRefuseNullAndOverlongKeys() {
        assertRoutingLookupsRefuse(null);
        assertRoutingLookupsRefuse("k".repeat(251));
        assertRoutingLookupsRefuse("é".repeat(126));
        String longest = "é".repeat(125);
        assertThat(client.ownerOf(longest)).isEqualTo(client.servers().get(0));
    }

    private static void assertRoutingLookupsRefuse(String key) {
        assertThatThrownBy(() -> client.serverFor(key)).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> client.ownerOf(key)).isInstanceOf(InvalidKeyException.class);
        ServerListChange change = client.prepareServers(List.of(memcached.addressList()));
        try {
            assertThatThrownBy(() -> change.ownerOf(key)).isInstanceOf(InvalidKeyException.class);
        } finally {
            change.discard();
        }
    }

    @Test
    void keyOver250BytesFailsBeforeSending() {
        String connectionsBefore = totalConnections();
        String longKey = "k".repeat(251);
        assertThatThrownBy(() -> blocking.get(longKey)).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("251 bytes");
        // 250 bytes is fine, counted in UTF-8 bytes, not characters.
        blocking.set("k".repeat(250), "edge", Duration.ZERO);
        assertThat(blocking.get("k".repeat(250))).isEqualTo("edge");
        assertThatThrownBy(() -> blocking.get("é".repeat(126))).isInstanceOf(InvalidKeyException.class);
        assertStillHealthy(connectionsBefore);
    }

    /**
     * The server as the oracle of the length rule: generated keys of 240 to 250 bytes mixing 1- to
     * 4-byte characters are valid here and are the server's keys byte for byte (read back over the
     * text protocol); one byte more, and both refuse them.
     */
    @Test
    void generatedKeysUpToTheLimitAreTheServersKeysAndOneByteMoreIsRefusedByBoth() {
        Random random = new Random(251);
        String[] characters = {"k", "é", "€", "\uD83D\uDC3B"};
        for (int n = 0; n < 200; n++) {
            int target = 240 + random.nextInt(11);
            StringBuilder key = new StringBuilder();
            int bytes = 0;
            while (true) {
                String character = characters[random.nextInt(characters.length)];
                int width = character.getBytes(StandardCharsets.UTF_8).length;
                if (bytes + width > target) {
                    break;
                }
                key.append(character);
                bytes += width;
            }
            String fits = key + "k".repeat(target - bytes);
            String value = "v" + n;
            assertThat(MemcachedClient.isValidKey(fits)).as(fits).isTrue();
            blocking.set(fits, value, Duration.ZERO);
            assertThat(memcached.first().textCommand("get " + fits))
                    .containsExactly("VALUE " + fits + " 0 " + value.length(), value, "END");

            String over = fits + "k".repeat(Keys.MAX_LENGTH + 1 - target);
            assertThat(MemcachedClient.isValidKey(over)).as(over).isFalse();
            assertThatThrownBy(() -> blocking.get(over)).isInstanceOf(InvalidKeyException.class);
            assertThat(memcached.first().textCommand("get " + over)).singleElement().asString().startsWith("CLIENT_ERROR");
        }
    }

    @Test
    void nullKeyAndNullValueAreTypedErrors() {
        assertThatThrownBy(() -> blocking.get(null)).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> blocking.set("null-value", null, Duration.ZERO)).isInstanceOf(TranscoderException.class);
        assertThatThrownBy(() -> blocking.set("negative", "v", Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * An item that inflates past the transcoder's limit (64 MiB of zeros, stored gzipped in about
     * 64 KiB by a writer that allows it) is a {@link TranscoderException} for a reader with the
     * default limit of 32 MiB, for get and getMulti alike, before it is all inflated; the item
     * stays stored for the writer, and the connection in use stays the same one.
     */
    @Test
    void anItemThatInflatesPastTheLimitIsATypedErrorAndStaysStored() {
        // Bulk reads have text connections of their own, opened by the first: counted from there.
        blocking.getMulti(List.of("kept"));
        String connectionsBefore = totalConnections();
        DefaultTranscoder generous = DefaultTranscoder.builder().maxUncompressedSize(Integer.MAX_VALUE).build();
        byte[] zeros = new byte[64 * 1024 * 1024];
        client.set("inflates", zeros, Duration.ZERO, generous).join();
        assertThat(client.get("inflates", RawTranscoder.RAW).join().bytes().length).isLessThan(100_000);

        assertThatThrownBy(() -> blocking.get("inflates")).isInstanceOf(TranscoderException.class)
                .hasMessageContaining("inflates to more than " + DefaultTranscoder.DEFAULT_MAX_UNCOMPRESSED_SIZE + " bytes");
        BulkResult<Object> both = blocking.getMulti(List.of("inflates", "kept"));
        assertThat(both.errors().get("inflates")).isInstanceOf(TranscoderException.class);
        assertThat(both.get("kept").value()).isEqualTo("safe");
        assertThat((byte[]) client.get("inflates", generous).join()).isEqualTo(zeros);
        assertStillHealthy(connectionsBefore);
    }

    /**
     * memcached deletes the key of a set it refuses as too large, so that the value the set meant
     * to replace is not read as current; a set refused here, unsent, must leave the same, in
     * setMulti too. Other keys, and values that are not replaced by a set (append), stay.
     */
    @Test
    void valueOverTheClientLimitFailsBeforeSendingAndTheKeysOldValueGoesAsMemcachedWouldDoIt() {
        blocking.set("big", "old", Duration.ZERO);
        blocking.set("big-in-bulk", "old", Duration.ZERO);
        blocking.set("appended", "old", Duration.ZERO);
        long setsBefore = Long.parseLong(memcached.first().stats().get("cmd_set"));
        String connectionsBefore = totalConnections();

        assertThatThrownBy(() -> blocking.set("big", incompressible(1024 * 1024 + 1), Duration.ZERO))
                .isInstanceOf(ValueTooLargeException.class).hasMessageContaining("maxItemSize");
        BulkResult<Object> bulk = blocking.setMulti(Map.of("big-in-bulk", incompressible(1024 * 1024 + 1), "small", "new"),
                Duration.ZERO);
        assertThatThrownBy(() -> blocking.append("appended", incompressible(1024 * 1024 + 1)))
                .isInstanceOf(ValueTooLargeException.class);

        assertThat(blocking.get("big")).isNull();
        assertThat(bulk.get("big-in-bulk").error()).isInstanceOf(ValueTooLargeException.class).hasMessageContaining("maxItemSize");
        assertThat(blocking.get("big-in-bulk")).isNull();
        assertThat(bulk.outcome("small")).isEqualTo(Outcome.STORED);
        assertThat(blocking.get("small")).isEqualTo("new");
        assertThat(blocking.get("appended")).isEqualTo("old");
        assertStillHealthy(connectionsBefore);
        assertThat(Long.parseLong(memcached.first().stats().get("cmd_set"))).as("only the small value was sent")
                .isEqualTo(setsBefore + 1);
    }

    @Test
    void valueOverTheServerLimitIsTooLargeFromTheServer() {
        try (MemcachedClient lenient = MemcachedClient.builder().servers(memcached.addressList())
                .connectionsPerServer(1, 1).maxItemSize(8 * 1024 * 1024).build()) {
            lenient.blocking().set("big", "old", Duration.ZERO);
            assertThatThrownBy(() -> lenient.blocking().set("big", incompressible(2 * 1024 * 1024), Duration.ZERO))
                    .isInstanceOfSatisfying(ValueTooLargeException.class,
                            e -> assertThat(e.status()).isEqualTo(ServerStatus.VALUE_TOO_LARGE));
            // memcached drops the old item when a replacement is too large; other keys are untouched.
            assertThat(lenient.blocking().get("kept")).isEqualTo("safe");
            lenient.blocking().set("after", "works", Duration.ZERO);
            assertThat(lenient.blocking().get("after")).isEqualTo("works");
        }
    }

    /**
     * memcached joins appended bytes to a compressed item and keeps its flags, so the item becomes
     * gzip followed by plain bytes. Python's gzip refuses that ("Not a gzipped file");
     * {@code GZIPInputStream} ignores what follows the gzip data, which read the item back as it
     * was before the append, the appended part silently gone. It is a {@link TranscoderException},
     * for get and getMulti alike, and the connection stays the same one. Two gzip members joined
     * (what a compressed prepend of another client makes) are one value, as gzip defines it.
     */
    @Test
    void aCompressedItemWithBytesAfterItsGzipDataIsATypedError() {
        blocking.getMulti(List.of("kept"));
        String connectionsBefore = totalConnections();
        String large = "z".repeat(DefaultTranscoder.DEFAULT_COMPRESSION_THRESHOLD + 1);
        blocking.set("compressed", large, Duration.ZERO);
        assertThat(blocking.append("compressed", "-tail")).isTrue();

        assertThatThrownBy(() -> blocking.get("compressed")).isInstanceOf(TranscoderException.class)
                .hasMessageContaining("after the gzip data");
        assertThat(blocking.getMulti(List.of("compressed", "kept")).errors().get("compressed"))
                .isInstanceOf(TranscoderException.class);
        CachedData appended = client.get("compressed", RawTranscoder.RAW).join();
        int gzipLength = appended.bytes().length - "-tail".length();
        byte[] twoMembers = Arrays.copyOf(appended.bytes(), 2 * gzipLength);
        System.arraycopy(appended.bytes(), 0, twoMembers, gzipLength, gzipLength);
        client.set("two-members", new CachedData(appended.flags(), twoMembers), Duration.ZERO, RawTranscoder.RAW).join();
        assertThat(blocking.get("two-members")).isEqualTo(large + large);
        assertStillHealthy(connectionsBefore);
    }

    /**
     * memcached joins an append's bytes to a serialized item and keeps its flags. Java
     * serialization reads one object and stops, so such an item had read back as it was before
     * the append, the appended part silently gone, and two serialized objects joined (another
     * client's prepend) as the first of them. Bytes after the object are a
     * {@link TranscoderException}, and the connection stays the same one.
     */
    @Test
    void aSerializedItemWithBytesAfterItsObjectIsATypedError() {
        blocking.getMulti(List.of("kept"));
        String connectionsBefore = totalConnections();
        blocking.set("serialized", new ArrayList<>(List.of("stored")), Duration.ZERO);
        CachedData stored = client.get("serialized", RawTranscoder.RAW).join();
        assertThat(blocking.append("serialized", "-tail")).isTrue();

        assertThatThrownBy(() -> blocking.get("serialized")).isInstanceOf(TranscoderException.class)
                .hasMessageContaining("after the serialized object");
        CachedData prepended = DefaultTranscoder.create().encode(new ArrayList<>(List.of("prepended")));
        byte[] joined = Arrays.copyOf(prepended.bytes(), prepended.bytes().length + stored.bytes().length);
        System.arraycopy(stored.bytes(), 0, joined, prepended.bytes().length, stored.bytes().length);
        client.set("two-objects", new CachedData(stored.flags(), joined), Duration.ZERO, RawTranscoder.RAW).join();
        assertThat(blocking.getMulti(List.of("two-objects", "kept")).errors().get("two-objects"))
                .isInstanceOf(TranscoderException.class);
        assertStillHealthy(connectionsBefore);
    }

    /**
     * memcached joins an append's or prepend's bytes to the stored ones under the stored flags. A
     * value the default transcoder serializes (an object, a string with an unpaired surrogate)
     * would join Java serialization bytes to the text, which no client could read after: it is
     * refused before sending, and the stored value, its flags and the connection are as they were.
     */
    @Test
    void appendingAValueThatWouldBeSerializedIsRefusedAndTheValueKept() {
        blocking.getMulti(List.of("kept"));
        String connectionsBefore = totalConnections();
        blocking.set("joined", "text", Duration.ZERO);
        blocking.set("joined-number", 42L, Duration.ZERO);
        for (Object value : List.of("a\uD800b", '\uDC00', new ArrayList<>(List.of("x")), Map.of("k", 1))) {
            for (String key : List.of("joined", "joined-number")) {
                assertThatThrownBy(() -> blocking.append(key, value)).as("append %s", value)
                        .isInstanceOf(TranscoderException.class).hasMessageContaining("serialize");
                assertThatThrownBy(() -> blocking.prepend(key, value)).as("prepend %s", value)
                        .isInstanceOf(TranscoderException.class).hasMessageContaining("serialize");
            }
        }
        assertStillHealthy(connectionsBefore);
        assertThat(memcached.first().textCommand("get joined")).containsExactly("VALUE joined 0 4", "text", "END");
        // The reply is read up to its first number line, here the value.
        assertThat(memcached.first().textCommand("get joined-number")).startsWith("VALUE joined-number " + (3 << 16) + " 2", "42");
        assertThat(blocking.append("joined", "-more")).isTrue();
        assertThat(blocking.prepend("joined-number", 1)).isTrue();
        assertThat(blocking.get("joined")).isEqualTo("text-more");
        assertThat(blocking.get("joined-number")).isEqualTo(142L);
    }

    @Test
    void rejectedDeserializationIsATypedErrorAndLeavesTheValueStored() {
        blocking.set("foreign", new ForeignValue("x"), Duration.ZERO);
        assertThatThrownBy(() -> blocking.get("foreign")).isInstanceOf(TranscoderException.class)
                .hasMessageContaining("allow-list");
        try (MemcachedClient allowing = MemcachedClient.builder().servers(memcached.addressList())
                .transcoder(dev.grizzlyboot.memcached.transcoder.DefaultTranscoder.builder()
                        .allow(ForeignValue.class.getName()).build())
                .build()) {
            assertThat(allowing.blocking().get("foreign")).isEqualTo(new ForeignValue("x"));
        }
    }

    record ForeignValue(String name) implements java.io.Serializable {
    }

    private void assertStillHealthy(String connectionsBefore) {
        assertThat(blocking.get("kept")).isEqualTo("safe");
        // Reading the stats opens one connection of its own; the client must not have opened any.
        assertThat(Integer.parseInt(totalConnections())).isEqualTo(Integer.parseInt(connectionsBefore) + 1);
    }

    private static String totalConnections() {
        return memcached.first().stats().get("total_connections");
    }

    /** Random bytes, so that compression cannot shrink them under the limit. */
    static byte[] incompressible(int size) {
        byte[] bytes = new byte[size];
        new java.util.Random(size).nextBytes(bytes);
        return bytes;
    }
}
