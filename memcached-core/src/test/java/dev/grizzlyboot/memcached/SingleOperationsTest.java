package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.transcoder.DefaultTranscoder;
import dev.grizzlyboot.memcached.transcoder.Transcoder;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every single-key and server-wide operation against a real memcached. */
class SingleOperationsTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    static MemcachedClient client;
    static BlockingMemcachedClient blocking;

    @BeforeAll
    static void connect() {
        client = MemcachedClient.builder().servers(memcached.addressList()).build();
        blocking = client.blocking();
    }

    @AfterAll
    static void close() {
        client.close();
    }

    static String key() {
        return "k-" + UUID.randomUUID();
    }

    @Test
    void setThenGetAndMissIsNull() {
        String key = key();
        assertThat(blocking.get(key)).isNull();
        blocking.set(key, "hello", Duration.ZERO);
        assertThat(blocking.get(key)).isEqualTo("hello");
    }

    @Test
    void stringsAreStoredAsPlainUtf8WithFlagsZeroForOtherClients() {
        String key = key();
        blocking.set(key, "grüße", Duration.ZERO);
        List<String> reply = memcached.first().textCommand("get " + key);
        assertThat(reply.get(0)).isEqualTo("VALUE " + key + " 0 7");
        assertThat(reply.get(1)).isEqualTo("grüße");
    }

    @Test
    void readsWhatAnotherClientStored() {
        String key = key();
        memcached.first().textCommand("set " + key + " 0 0 5\r\nplain");
        assertThat(blocking.get(key, Transcoder.string())).isEqualTo("plain");
        assertThat(blocking.get(key)).isEqualTo("plain");
    }

    @Test
    void addOnlyWhenAbsentReplaceOnlyWhenPresent() {
        String key = key();
        assertThat(blocking.replace(key, "x", Duration.ZERO)).isFalse();
        assertThat(blocking.add(key, "first", Duration.ZERO)).isTrue();
        assertThat(blocking.add(key, "second", Duration.ZERO)).isFalse();
        assertThat(blocking.get(key)).isEqualTo("first");
        assertThat(blocking.replace(key, "third", Duration.ZERO)).isTrue();
        assertThat(blocking.get(key)).isEqualTo("third");
    }

    @Test
    void appendAndPrepend() {
        String key = key();
        assertThat(blocking.append(key, "x")).isFalse();
        blocking.set(key, "middle", Duration.ZERO);
        assertThat(blocking.append(key, "-end")).isTrue();
        assertThat(blocking.prepend(key, "start-")).isTrue();
        assertThat(blocking.get(key)).isEqualTo("start-middle-end");
    }

    /**
     * memcached joins an append's bytes to the stored ones and keeps the stored item's flags, so a
     * string over the compression threshold must go as its UTF-8: gzip joined to a plain string is
     * garbage to every reader. The server's own item is the oracle.
     */
    @Test
    void appendAndPrependOfStringsOverTheCompressionThresholdJoinTheirUtf8() {
        String key = key();
        String large = "x".repeat(DefaultTranscoder.DEFAULT_COMPRESSION_THRESHOLD + 1);
        blocking.set(key, "middle", Duration.ZERO);
        assertThat(blocking.append(key, large)).isTrue();
        assertThat(blocking.prepend(key, large)).isTrue();
        assertThat(blocking.get(key)).isEqualTo(large + "middle" + large);
        List<String> reply = memcached.first().textCommand("get " + key);
        assertThat(reply.get(0)).isEqualTo("VALUE " + key + " 0 " + (2 * large.length() + "middle".length()));
        assertThat(reply.get(1)).isEqualTo(large + "middle" + large);
    }

    @Test
    void casStoresOnlyWithTheCurrentToken() {
        String key = key();
        assertThat(blocking.gets(key)).isNull();
        assertThat(blocking.cas(key, "v", 12345, Duration.ZERO)).isEqualTo(CasResult.NOT_FOUND);
        blocking.set(key, "v1", Duration.ZERO);
        CasValue<Object> read = blocking.gets(key);
        assertThat(read.value()).isEqualTo("v1");
        assertThat(read.cas()).isNotZero();
        assertThat(blocking.cas(key, "v2", read.cas(), Duration.ZERO)).isEqualTo(CasResult.STORED);
        assertThat(blocking.cas(key, "v3", read.cas(), Duration.ZERO)).isEqualTo(CasResult.EXISTS);
        assertThat(blocking.get(key)).isEqualTo("v2");
    }

    @Test
    void deleteReportsWhetherTheKeyWasThere() {
        String key = key();
        blocking.set(key, "v", Duration.ZERO);
        assertThat(blocking.delete(key)).isTrue();
        assertThat(blocking.delete(key)).isFalse();
        assertThat(blocking.get(key)).isNull();
    }

    @Test
    void countersWithAndWithoutInitialValue() {
        String key = key();
        assertThatThrownBy(() -> blocking.incr(key, 1)).isInstanceOf(KeyNotFoundException.class)
                .hasMessageContaining(key);
        assertThat(blocking.incr(key, 5, 10, Duration.ZERO)).isEqualTo(10);
        assertThat(blocking.incr(key, 5)).isEqualTo(15);
        assertThat(blocking.decr(key, 20)).isZero();
        assertThat(blocking.decr(key + "-d", 1, 7, Duration.ZERO)).isEqualTo(7);
    }

    @Test
    void longsAreDecimalTextSoCountersWorkOnThem() {
        String key = key();
        blocking.set(key, 41L, Duration.ZERO);
        assertThat(blocking.incr(key, 1)).isEqualTo(42);
        assertThat(blocking.get(key, Transcoder.string())).isEqualTo("42");
    }

    /**
     * memcached writes a decrement that loses digits over the old text and pads it with spaces
     * ("10" decremented by one is "9 "), keeping the flags: a number stored with its type reads
     * back as that type, not as an error.
     */
    @Test
    void aCounterTheServerShortenedInPlaceReadsBackAsItsType() {
        Map<Object, Object> storedThenDecremented = Map.of(10, 9, 1000L, 5L, (short) 10, (short) 1, (byte) 100, (byte) 0);
        storedThenDecremented.forEach((stored, expected) -> {
            String key = key();
            blocking.set(key, stored, Duration.ZERO);
            long delta = ((Number) stored).longValue() - ((Number) expected).longValue();
            assertThat(blocking.decr(key, delta)).isEqualTo(((Number) expected).longValue());
            assertThat(memcached.first().textCommand("get " + key).get(1)).as("the server's text")
                    .startsWith(expected + " ").hasSameSizeAs(stored.toString());
            assertThat(blocking.get(key)).as("read back after the decrement").isEqualTo(expected);
        });
    }

    /** A long counter incremented past {@link Long#MAX_VALUE} reads back as the 64 bits its increment returned. */
    @Test
    void aLongCounterAboveLongMaxValueReadsBackAsItsSixtyFourBits() {
        String key = key();
        blocking.set(key, Long.MAX_VALUE, Duration.ZERO);
        long incremented = blocking.incr(key, 2);
        assertThat(blocking.get(key)).isEqualTo(incremented).isEqualTo(Long.MIN_VALUE + 1);
    }

    /**
     * Above {@link Long#MAX_VALUE} a counter comes back as its 64 bits, which the server's own text
     * reads unsigned. Every increment here starts below 2^63: memcached before 1.6.22 may refuse one
     * that starts above as non-numeric (its check for a minus sign reads past the item's data).
     */
    @Test
    void countersUseAllSixtyFourBitsUnsigned() {
        String key = key();
        blocking.set(key, Long.toUnsignedString(Long.MAX_VALUE), Duration.ZERO);
        long above = blocking.incr(key, 1);
        assertThat(Long.toUnsignedString(above)).isEqualTo("9223372036854775808")
                .isEqualTo(memcached.first().textCommand("get " + key).get(1));
        blocking.set(key, Long.toUnsignedString(Long.MAX_VALUE), Duration.ZERO);
        assertThat(blocking.incr(key, Long.MAX_VALUE)).isEqualTo(-2L);
        assertThat(memcached.first().textCommand("get " + key).get(1)).isEqualTo("18446744073709551614");
        assertThat(blocking.incr(key + "-initial", 0, Long.MAX_VALUE, Duration.ZERO)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void incrOnNonNumericValueIsATypedError() {
        String key = key();
        blocking.set(key, "abc", Duration.ZERO);
        assertThatThrownBy(() -> blocking.incr(key, 1)).isInstanceOfSatisfying(MemcachedStatusException.class,
                e -> assertThat(e.status()).isEqualTo(ServerStatus.NON_NUMERIC_VALUE));
    }

    @Test
    void shortExpiryExpires() {
        String key = key();
        blocking.set(key, "soon gone", Duration.ofSeconds(1));
        assertThat(blocking.get(key)).isEqualTo("soon gone");
        await().atMost(Duration.ofSeconds(5)).until(() -> blocking.get(key) == null);
    }

    @Test
    void expiryOverThirtyDaysIsSentAsAbsoluteTime() {
        String key = key();
        blocking.set(key, "v", Duration.ofDays(45));
        long ttl = ttlOnServer(key);
        // memcached's clock ticks once a second, so the remaining TTL can read one second long.
        assertThat(ttl).isBetween(Duration.ofDays(45).toSeconds() - 60, Duration.ofDays(45).toSeconds() + 1);
    }

    @Test
    void touchAndGetAndTouchChangeTheExpiry() {
        String key = key();
        assertThat(blocking.touch(key, Duration.ofSeconds(10))).isFalse();
        blocking.set(key, "v", Duration.ofSeconds(100));
        assertThat(blocking.touch(key, Duration.ofSeconds(1000))).isTrue();
        assertThat(ttlOnServer(key)).isBetween(990L, 1001L);
        assertThat(blocking.getAndTouch(key, Duration.ofSeconds(2000))).isEqualTo("v");
        assertThat(ttlOnServer(key)).isBetween(1990L, 2001L);
        assertThat(blocking.getAndTouch(key + "-missing", Duration.ofSeconds(1))).isNull();
    }

    @Test
    void noopVersionStatsAndFlush() {
        blocking.noop();
        Map<ServerAddress, String> versions = blocking.version();
        assertThat(versions).hasSize(1);
        assertThat(versions.values().iterator().next()).startsWith("1.");
        assertThat(blocking.stats().values().iterator().next()).containsKeys("pid", "curr_connections", "cmd_get");
        assertThat(blocking.stats("settings").values().iterator().next()).containsEntry("item_size_max", "1048576");

        String key = key();
        blocking.set(key, "v", Duration.ZERO);
        blocking.flushAll();
        assertThat(blocking.get(key)).isNull();
    }

    @Test
    void serializableValuesRoundTrip() {
        String key = key();
        blocking.set(key, new java.util.ArrayList<>(List.of(1, "two", 3.0)), Duration.ZERO);
        assertThat(blocking.get(key)).isEqualTo(List.of(1, "two", 3.0));
    }

    /**
     * The binary protocol's expiration is an unsigned 32-bit Unix time: an expiry ending after
     * January 2038 (past 2^31 seconds) is stored and kept with its TTL, and only one ending after
     * 2106 (past 2^32) is refused, before anything is sent.
     */
    @Test
    void expiryEndingAfter2038IsKeptAndOnlyOneAfter2106IsRefused() {
        String key = key();
        long now = System.currentTimeMillis() / 1000;
        Duration after2038 = Duration.ofSeconds((1L << 31) + Duration.ofDays(365).toSeconds() - now);
        blocking.set(key, "v", after2038);
        assertThat(blocking.get(key)).isEqualTo("v");
        assertThat(ttlOnServer(key)).isBetween(after2038.toSeconds() - 60, after2038.toSeconds() + 1);

        Duration after2106 = Duration.ofSeconds((1L << 32) + Duration.ofDays(1).toSeconds() - now);
        assertThatThrownBy(() -> blocking.set(key, "w", after2106)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too far");
        assertThat(blocking.get(key)).isEqualTo("v");
    }

    /**
     * Durations of nearly {@code Long.MAX_VALUE} seconds (such as {@code ChronoUnit.FOREVER}'s)
     * end after 2106, the last time the binary protocol's expiration can say: every operation
     * that takes an expiry refuses them before sending, and the stored item keeps its value and
     * its "never expires". Adding them to the current time overflowed, and its low 32 bits, a
     * time in the past, were sent: the item was stored already expired.
     */
    @Test
    void expiriesOverflowingPastTheLastUnixTimeAreRefused() {
        String key = key();
        blocking.set(key, "kept", Duration.ZERO);
        long now = System.currentTimeMillis() / 1000;
        List<Duration> huge = List.of(Duration.ofSeconds(Long.MAX_VALUE), ChronoUnit.FOREVER.getDuration(),
                Duration.ofSeconds(Long.MAX_VALUE - now + 3_600), Duration.ofSeconds(Long.MAX_VALUE / 2, 1));
        for (Duration expiry : huge) {
            Map<String, Runnable> calls = new LinkedHashMap<>();
            calls.put("set", () -> blocking.set(key, "v", expiry));
            calls.put("replace", () -> blocking.replace(key, "v", expiry));
            calls.put("cas", () -> blocking.cas(key, "v", blocking.gets(key).cas(), expiry));
            calls.put("touch", () -> blocking.touch(key, expiry));
            calls.put("getAndTouch", () -> blocking.getAndTouch(key, expiry));
            calls.put("setMulti", () -> blocking.setMulti(Map.of(key, "v"), expiry));
            calls.put("add", () -> blocking.add(key + "-new", "v", expiry));
            calls.put("incr", () -> blocking.incr(key + "-counter", 1, 5, expiry));
            calls.forEach((name, call) -> assertThatThrownBy(call::run).as("%s with %s", name, expiry)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too far"));
        }
        assertThat(blocking.get(key)).isEqualTo("kept");
        assertThat(memcached.first().textCommand("mg " + key + " t").get(0)).isEqualTo("HD t-1");
        assertThat(blocking.get(key + "-new")).isNull();
        assertThat(blocking.get(key + "-counter")).isNull();
    }

    /**
     * An INCREMENT/DECREMENT expiration of 0xFFFFFFFF tells memcached not to create a missing
     * counter, and it is also the absolute time 2106-02-07T06:28:15Z: a counter created to expire
     * then is refused before it is sent, never turned into "key not found"; a second earlier is
     * created, with its expiry. The wire time is read from the clock inside the call, so the call
     * is repeated until it fell within the second its duration was computed for.
     */
    @Test
    void counterExpiringAtTheDoNotCreateTimeIsRefusedNotSentAsDoNotCreate() {
        String key = key();
        for (boolean incr : new boolean[] {true, false}) {
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                long now = System.currentTimeMillis() / 1000;
                Duration untilDoNotCreate = Duration.ofSeconds(0xFFFF_FFFFL - now);
                CompletableFuture<Long> call = incr ? client.incr(key, 1, 5, untilDoNotCreate)
                        : client.decr(key, 1, 5, untilDoNotCreate);
                if (System.currentTimeMillis() / 1000 != now) {
                    return false;
                }
                assertThatThrownBy(call::join).as(incr ? "incr" : "decr").isInstanceOf(CompletionException.class)
                        .cause().isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not to create");
                return true;
            });
        }
        assertThat(blocking.get(key)).isNull();

        long now = System.currentTimeMillis() / 1000;
        Duration justBefore = Duration.ofSeconds(0xFFFF_FFF0L - now);
        assertThat(blocking.incr(key, 1, 5, justBefore)).isEqualTo(5);
        assertThat(ttlOnServer(key)).isBetween(justBefore.toSeconds() - 60, justBefore.toSeconds() + 1);
    }

    /**
     * A fraction of a second rounds up to the next whole second: a millisecond is an expiry of one
     * second, never 0 (which memcached reads as "never expires"), and 100.5 s is 101 s.
     */
    @Test
    void fractionsOfASecondRoundUpAndNeverMeanNever() {
        String key = key();
        blocking.set(key, "v", Duration.ofMillis(1));
        // Stored for at most a second, or gone already at memcached's next clock tick: never "t-1" (no expiry).
        assertThat(memcached.first().textCommand("mg " + key + " t").get(0)).isIn("HD t1", "HD t0", "EN");
        await().atMost(Duration.ofSeconds(5)).until(() -> blocking.get(key) == null);

        blocking.set(key, "v", Duration.ZERO);
        assertThat(blocking.touch(key, Duration.ofMillis(100_500))).isTrue();
        assertThat(ttlOnServer(key)).isBetween(100L, 101L);
    }

    private static long ttlOnServer(String key) {
        return memcached.first().remainingTtl(key);
    }
}
