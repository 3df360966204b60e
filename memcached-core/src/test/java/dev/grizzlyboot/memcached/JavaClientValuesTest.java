package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import dev.grizzlyboot.memcached.transcoder.DefaultTranscoder;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.spy.memcached.BinaryConnectionFactory;
import net.spy.memcached.transcoders.SerializingTranscoder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Values our default transcoder stores and reads, against the default transcoders of
 * spymemcached (binary protocol) and xmemcached (text protocol) on one real server: generated
 * values of every type those transcoders know, at their edges and across the compression
 * threshold. What the other client wrote must come back to us as what it was; what we wrote must
 * come back to it as what it was, or, for our boxed numbers (decimal text under codes of ours),
 * as that text. Never as another value.
 */
class JavaClientValuesTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    static MemcachedClient ours;
    static net.spy.memcached.MemcachedClient spymemcached;
    static net.rubyeye.xmemcached.MemcachedClient xmemcached;

    @BeforeAll
    static void connect() throws Exception {
        ours = MemcachedClient.builder().servers(memcached.addresses()).operationTimeout(Duration.ofSeconds(5)).build();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", memcached.first().port());
        spymemcached = new net.spy.memcached.MemcachedClient(new BinaryConnectionFactory(), List.of(address));
        XMemcachedClientBuilder builder = new XMemcachedClientBuilder(List.of(address));
        builder.setOpTimeout(5_000);
        xmemcached = builder.build();
    }

    @AfterAll
    static void close() throws Exception {
        ours.close();
        spymemcached.shutdown();
        xmemcached.shutdown();
    }

    @Test
    void weReadWhatSpymemcachedStored() throws Exception {
        Map<String, Object> stored = keyed("spy->ours", values(new Random(1)));
        for (Map.Entry<String, Object> entry : stored.entrySet()) {
            assertThat(spymemcached.set(entry.getKey(), 0, entry.getValue()).get()).isTrue();
        }
        assertWeRead(stored);
    }

    @Test
    void weReadWhatXmemcachedStored() throws Exception {
        Map<String, Object> stored = keyed("xmc->ours", values(new Random(2)));
        for (Map.Entry<String, Object> entry : stored.entrySet()) {
            assertThat(xmemcached.set(entry.getKey(), 0, entry.getValue())).isTrue();
        }
        assertWeRead(stored);
    }

    @Test
    void spymemcachedReadsWhatWeStored() throws Exception {
        Map<String, Object> stored = keyed("ours->spy", values(new Random(3)));
        store(stored);
        for (Map.Entry<String, Object> entry : stored.entrySet()) {
            assertThat(spymemcached.get(entry.getKey())).as(describe(entry)).isEqualTo(asTheyRead(entry.getValue()));
        }
    }

    @Test
    void xmemcachedReadsWhatWeStored() throws Exception {
        Map<String, Object> stored = keyed("ours->xmc", values(new Random(4)));
        store(stored);
        for (Map.Entry<String, Object> entry : stored.entrySet()) {
            Object read = xmemcached.get(entry.getKey());
            assertThat(read).as(describe(entry)).isEqualTo(asTheyRead(entry.getValue()));
        }
    }

    @Test
    void ourNumbersStayCountersTheOthersReadAsText() throws Exception {
        String key = "counter:" + UUID.randomUUID();
        ours.set(key, 41L, Duration.ZERO).get();
        assertThat(ours.incr(key, 1).get()).isEqualTo(42);
        assertThat(spymemcached.get(key)).isEqualTo("42");
        assertThat(xmemcached.<Object>get(key)).isEqualTo("42");
        assertThat(ours.get(key).get()).isEqualTo(42L);
    }

    /**
     * At the compression threshold we leave the item spymemcached leaves: a value of exactly 16 KiB
     * stays as it is and one byte more is gzipped, but only when that makes it smaller (random bytes
     * are not). Both clients' items on the server, read through the meta protocol, have the same
     * flags and size, so a threshold or a size check off by one shows as a difference.
     */
    @Test
    void aroundTheCompressionThresholdWeStoreTheItemsSpymemcachedStores() throws Exception {
        Random random = new Random(5);
        List<Object> values = new ArrayList<>();
        for (int size : new int[] {16_383, 16_384, 16_385, 16_386}) {
            values.add("a".repeat(size));
            values.add(new byte[size]);
            byte[] incompressible = new byte[size];
            random.nextBytes(incompressible);
            values.add(incompressible);
        }
        String run = UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < values.size(); i++) {
            Object value = values.get(i);
            String oursKey = "threshold:ours:" + run + ":" + i;
            String spyKey = "threshold:spy:" + run + ":" + i;
            ours.set(oursKey, value, Duration.ZERO).get();
            assertThat(spymemcached.set(spyKey, 0, value).get()).isTrue();
            String description = describe(Map.entry(oursKey, value));
            assertThat(flagsAndSize(oursKey)).as(description).isEqualTo(flagsAndSize(spyKey));
        }
        // Exactly the threshold stays plain text; one byte more is gzipped (flag bit 1).
        assertThat(flagsAndSize("threshold:ours:" + run + ":3")).isEqualTo("f0 s16384");
        assertThat(flagsAndSize("threshold:ours:" + run + ":6")).startsWith("f2 ");
    }

    /**
     * spymemcached gzips what it stores over 16 KiB and inflates without a limit. A value of
     * exactly our limit that it stored (32 MiB of zeros, about 32 KiB on the server) reads back
     * here; one byte more is a {@link TranscoderException} for our default reader and the value
     * itself for a reader of ours with a higher limit, and spymemcached still reads what it stored.
     */
    @Test
    void aValueSpymemcachedCompressedReadsBackUpToOurInflatingLimit() throws Exception {
        int limit = DefaultTranscoder.DEFAULT_MAX_UNCOMPRESSED_SIZE;
        SerializingTranscoder spyLarge = new SerializingTranscoder(limit + 1);
        String run = UUID.randomUUID().toString().substring(0, 8);
        byte[] atTheLimit = new byte[limit];
        byte[] overIt = new byte[limit + 1];
        assertThat(spymemcached.set("inflate:at:" + run, 0, atTheLimit, spyLarge).get()).isTrue();
        assertThat(spymemcached.set("inflate:over:" + run, 0, overIt, spyLarge).get()).isTrue();
        assertThat(flagsAndSize("inflate:over:" + run)).matches("f2050 s\\d{4,5}");

        assertThat((byte[]) ours.get("inflate:at:" + run).get()).isEqualTo(atTheLimit);
        assertThatThrownBy(() -> ours.blocking().get("inflate:over:" + run)).isInstanceOf(TranscoderException.class)
                .hasMessageContaining("inflates to more than " + limit + " bytes");
        DefaultTranscoder higher = DefaultTranscoder.builder().maxUncompressedSize(limit + 1).build();
        assertThat((byte[]) ours.get("inflate:over:" + run, higher).get()).isEqualTo(overIt);
        assertThat((byte[]) spymemcached.get("inflate:over:" + run, spyLarge)).isEqualTo(overIt);
    }

    /** The stored item's flags and size, as memcached's meta get reports them ("f2 s120"). */
    private static String flagsAndSize(String key) {
        String reply = memcached.first().textCommand("mg " + key + " f s").get(0);
        assertThat(reply).as(key).startsWith("HD ");
        return reply.substring("HD ".length());
    }

    private static void store(Map<String, Object> values) throws Exception {
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            ours.set(entry.getKey(), entry.getValue(), Duration.ZERO).get();
        }
    }

    private static void assertWeRead(Map<String, Object> stored) throws Exception {
        for (Map.Entry<String, Object> entry : stored.entrySet()) {
            assertThat(ours.get(entry.getKey()).get()).as(describe(entry)).isEqualTo(entry.getValue());
        }
        // getMulti reads over the text protocol, where the flags arrive as decimal text.
        Map<String, Object> bulk = ours.getMulti(stored.keySet()).get().values();
        for (Map.Entry<String, Object> entry : stored.entrySet()) {
            assertThat(bulk.get(entry.getKey())).as("getMulti " + describe(entry)).isEqualTo(entry.getValue());
        }
    }

    /** The boxed types we store as text reach the other clients as that text; the rest as themselves. */
    private static Object asTheyRead(Object value) {
        boolean text = value instanceof Number && !(value instanceof BigDecimal || value instanceof BigInteger)
                || value instanceof Boolean
                || value instanceof Character c && !Character.isSurrogate(c);
        return text ? value.toString() : value;
    }

    private static String describe(Map.Entry<String, Object> entry) {
        Object value = entry.getValue();
        String shown = value instanceof byte[] bytes ? "byte[" + bytes.length + "]"
                : value instanceof String s && s.length() > 40 ? "String(" + s.length() + ")" : String.valueOf(value);
        return entry.getKey() + " = " + value.getClass().getSimpleName() + " " + shown;
    }

    private static Map<String, Object> keyed(String prefix, List<Object> values) {
        Map<String, Object> keyed = new LinkedHashMap<>();
        String run = UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < values.size(); i++) {
            keyed.put(prefix + ":" + run + ":" + i, values.get(i));
        }
        return keyed;
    }

    /** Every type both clients' default transcoders give a flag of their own, plus the ones they serialize. */
    static List<Object> values(Random random) {
        List<Object> values = new ArrayList<>();
        for (int i : new int[] {0, 1, -1, 127, 128, 255, 256, 65_535, 65_536, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            values.add(i);
        }
        for (long l : new long[] {0, 1, -1, 255, 256, 1L << 32, Long.MIN_VALUE, Long.MAX_VALUE}) {
            values.add(l);
        }
        for (int b = Byte.MIN_VALUE; b <= Byte.MAX_VALUE; b++) {
            values.add((byte) b);
        }
        for (short s : new short[] {0, 1, -1, Short.MIN_VALUE, Short.MAX_VALUE}) {
            values.add(s);
        }
        for (float f : new float[] {0f, -0f, 1.5f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                Float.MIN_VALUE, Float.MAX_VALUE}) {
            values.add(f);
        }
        for (double d : new double[] {0d, -0d, 2.25d, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE, Double.MAX_VALUE}) {
            values.add(d);
        }
        values.add(true);
        values.add(false);
        for (char c : new char[] {'x', '0', '1', ' ', 'é', '\u20ac', '\uD800', '\uDFFF', '\uFFFF'}) {
            values.add(c);
        }
        values.add(new Date(0));
        values.add(new Date(1_700_000_000_123L));
        values.add(new BigDecimal("12345.678"));
        values.add(BigInteger.TWO.pow(100));
        values.add(Instant.ofEpochSecond(1_800_000_000L, 5));
        values.add(new HashMap<>(Map.of("a", 1, "b", List.of("x", "y"))));
        // Serialized and over the threshold: compressed as well (flags 3 on every side).
        ArrayList<String> large = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            large.add("element-" + i);
        }
        values.add(large);
        for (int i = 0; i < 40; i++) {
            values.add(random.nextInt());
            values.add(random.nextLong());
            values.add(Float.intBitsToFloat(random.nextInt()));
            values.add(Double.longBitsToDouble(random.nextLong()));
            values.add((short) random.nextInt());
            values.add((char) random.nextInt(0x10000));
            values.add(new Date(random.nextLong()));
        }
        // Both sides of the 16 KiB threshold above which all three compress (spymemcached and
        // xmemcached with gzip too); repetitive text compresses, random bytes do not.
        for (int size : new int[] {0, 1, 100, 16_383, 16_384, 16_385, 100_000, 600_000}) {
            values.add(text(random, size));
            values.add("ab".repeat(size / 2));
            byte[] bytes = new byte[size];
            random.nextBytes(bytes);
            values.add(bytes);
            values.add(new byte[size]);
        }
        return values;
    }

    /** Random text of exactly {@code length} chars, pairs only (it has a UTF-8 form). */
    static String text(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        while (text.length() < length) {
            int codePoint = random.nextInt(0x10FFFF + 1);
            if (Character.isSurrogate((char) codePoint) && codePoint < 0x10000) {
                continue;
            }
            if (text.length() + Character.charCount(codePoint) <= length) {
                text.appendCodePoint(codePoint);
            } else {
                text.append('a');
            }
        }
        return text.toString();
    }
}
