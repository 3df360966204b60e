package dev.grizzlyboot.memcached;

import static dev.grizzlyboot.memcached.RawTranscoder.RAW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerDetails;
import dev.grizzlyboot.memcached.transcoder.CachedData;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import net.spy.memcached.BinaryConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bulk reads over the text protocol (the default) against real memcached, with spymemcached as
 * the second implementation: what spymemcached wrote over the binary protocol (every value size
 * up to memcached's item limit, every key length, flags over the whole 32 bits, UTF-8 keys) reads
 * back byte for byte with its flags, as the binary bulk read reads it; {@code gets} tokens are the
 * ones spymemcached sees; the reads really go on text connections of their own.
 */
class TextBulkReadTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);


    static MemcachedClient text;
    static MemcachedClient binary;
    /** One spymemcached client per server: each key is written where our ring puts it. */
    static Map<ServerAddress, net.spy.memcached.MemcachedClient> spy = new HashMap<>();

    @BeforeAll
    static void connect() throws Exception {
        text = MemcachedClient.builder().servers(memcached.addresses()).build();
        binary = MemcachedClient.builder().servers(memcached.addresses()).textBulkReads(false).build();
        for (ServerAddress server : text.servers()) {
            spy.put(server, new net.spy.memcached.MemcachedClient(new BinaryConnectionFactory(),
                    List.of(new InetSocketAddress(server.host(), server.port()))));
        }
    }

    @AfterAll
    static void close() {
        text.close();
        binary.close();
        spy.values().forEach(net.spy.memcached.MemcachedClient::shutdown);
    }

    @Test
    void readsWhatSpymemcachedWroteOverEveryValueSizeKeyLengthAndFlag() throws Exception {
        Random random = new Random(20261127);
        String prefix = UUID.randomUUID().toString().substring(0, 8);
        Map<String, net.spy.memcached.CachedData> written = new LinkedHashMap<>();
        List<Integer> sizes = new ArrayList<>();
        for (int size = 0; size <= 64; size++) {
            sizes.add(size);
        }
        for (int power = 7; power <= 19; power++) {
            sizes.addAll(List.of((1 << power) - 1, 1 << power, (1 << power) + 1));
        }
        sizes.add(1_000_000);
        int[] edgeFlags = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE};
        for (int i = 0; i < sizes.size(); i++) {
            String key = key(prefix, i, random);
            byte[] value = new byte[sizes.get(i)];
            random.nextBytes(value);
            int flags = i < edgeFlags.length ? edgeFlags[i] : random.nextInt();
            written.put(key, new net.spy.memcached.CachedData(flags, value, Integer.MAX_VALUE));
            assertThat(spyFor(key).set(key, 0, written.get(key), new RawSpyTranscoder()).get()).isTrue();
        }
        List<String> asked = new ArrayList<>(written.keySet());
        for (int i = 0; i < 40; i++) {
            asked.add(random.nextInt(asked.size()), prefix + ":missing:" + i);
        }

        for (MemcachedClient client : List.of(text, binary)) {
            BulkResult<CachedData> read = client.getMulti(asked, RAW).get();
            for (String key : asked) {
                net.spy.memcached.CachedData expected = written.get(key);
                if (expected == null) {
                    assertThat(read.outcome(key)).as(key).isEqualTo(Outcome.NOT_FOUND);
                } else {
                    assertThat(read.outcome(key)).as(key).isEqualTo(Outcome.FOUND);
                    assertThat(read.get(key).value().flags()).as(key).isEqualTo(expected.getFlags());
                    assertThat(read.get(key).value().bytes()).as(key).isEqualTo(expected.getData());
                }
            }
        }
    }

    @Test
    void getsTokensAreTheOnesSpymemcachedSees() throws Exception {
        Random random = new Random(7);
        String prefix = UUID.randomUUID().toString().substring(0, 8);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String key = key(prefix, i, random);
            keys.add(key);
            text.blocking().set(key, "value " + i, Duration.ZERO);
        }
        BulkResult<Object> viaText = text.blocking().getsMulti(keys);
        BulkResult<Object> viaBinary = binary.blocking().getsMulti(keys);
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            long expected = spyFor(key).gets(key).getCas();
            assertThat(viaText.get(key).cas()).as(key).isEqualTo(expected).isNotZero();
            assertThat(viaBinary.get(key).cas()).as(key).isEqualTo(expected);
            assertThat(viaText.get(key).value()).isEqualTo("value " + i);
        }
    }

    @Test
    void aKeyThatBeginsAnotherKeyIsNotAnsweredWithTheOthersValue() {
        String prefix = UUID.randomUUID().toString().substring(0, 8);
        String shorter = prefix + ":a";
        String longer = prefix + ":ab";
        try (MemcachedClient single = MemcachedClient.builder().servers(memcached.addresses().get(0)).build()) {
            single.blocking().set(longer, "long", Duration.ZERO);
            for (List<String> keys : List.of(List.of(shorter, longer), List.of(longer, shorter))) {
                BulkResult<Object> read = single.blocking().getMulti(keys);
                assertThat(read.outcome(shorter)).as("%s", keys).isEqualTo(Outcome.NOT_FOUND);
                assertThat(read.values()).as("%s", keys).containsExactly(entry(longer, "long"));
            }
            single.blocking().set(shorter, "short", Duration.ZERO);
            assertThat(single.blocking().getMulti(List.of(longer, shorter)).values())
                    .containsExactly(entry(longer, "long"), entry(shorter, "short"));
        }
    }

    @Test
    void thousandsOfLongKeysInOneGetLine() {
        String prefix = UUID.randomUUID().toString();
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < 5_000; i++) {
            String key = prefix + ":" + i + ":";
            values.put(key + "x".repeat(250 - key.length()), "v" + i);
        }
        try (MemcachedClient single = MemcachedClient.builder().servers(memcached.addresses().get(0))
                .operationTimeout(Duration.ofSeconds(10)).build()) {
            assertThat(single.blocking().setMulti(values, Duration.ZERO).errors()).isEmpty();
            assertThat(single.blocking().getMulti(values.keySet()).values()).isEqualTo(values);
        }
    }

    @Test
    void bulkReadsGoOnTextConnectionsOfTheirOwnAndOnlyWhenEnabled() {
        try (MemcachedClient fresh = MemcachedClient.builder().servers(memcached.addresses()).build();
                MemcachedClient off = MemcachedClient.builder().servers(memcached.addresses()).textBulkReads(false).build()) {
            // Enough keys that every server owns some, whatever ports the servers got: with eight, a
            // server owned none in about one run in ten, and the test failed for it.
            List<String> keys = IntStream.range(0, 200).mapToObj(i -> "conn:" + i).toList();
            fresh.blocking().get("conn:a");
            off.blocking().get("conn:a");
            awaitOpen(fresh, 2);
            fresh.blocking().getMulti(keys);
            off.blocking().getMulti(keys);
            // Every server got a share of the keys: each opened its text connections (two, as the binary ones).
            awaitOpen(fresh, 4);
            awaitOpen(off, 2);
        }
    }

    @Test
    void textBulkReadsAskedForWithAuthenticationFailAtBuild() {
        assertThatThrownBy(() -> MemcachedClient.builder().servers("127.0.0.1:11211").authentication("user", "secret")
                .textBulkReads(true).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("memcached's SASL is binary only");
    }

    private static void awaitOpen(MemcachedClient client, int perServer) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> client.serverDetails().stream()
                .mapToInt(ServerDetails::openConnections).allMatch(open -> open == perServer));
    }

    /** A key of a random length from 1 to 250 bytes of UTF-8, some with characters beyond ASCII. */
    private static String key(String prefix, int index, Random random) {
        String base = prefix + ":" + index + (index % 3 == 0 ? ":ключ-ü-键" : ":");
        int target = 1 + random.nextInt(250);
        StringBuilder key = new StringBuilder(base);
        while (key.toString().getBytes(StandardCharsets.UTF_8).length < target) {
            key.append((char) ('a' + random.nextInt(26)));
        }
        return key.toString();
    }

    private net.spy.memcached.MemcachedClient spyFor(String key) {
        return spy.get(text.serverFor(key));
    }

    /** Stores and reads spymemcached's items as they are: the flags and bytes the test chose. */
    private static final class RawSpyTranscoder implements net.spy.memcached.transcoders.Transcoder<net.spy.memcached.CachedData> {
        @Override
        public boolean asyncDecode(net.spy.memcached.CachedData data) {
            return false;
        }

        @Override
        public net.spy.memcached.CachedData encode(net.spy.memcached.CachedData value) {
            return value;
        }

        @Override
        public net.spy.memcached.CachedData decode(net.spy.memcached.CachedData data) {
            return data;
        }

        @Override
        public int getMaxSize() {
            return Integer.MAX_VALUE;
        }
    }
}
