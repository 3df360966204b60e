package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.grizzlyboot.memcached.transcoder.Transcoder;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The API's contract for bad arguments, against a real server: a null key is an
 * {@link InvalidKeyException} for every keyed method (with and without a near cache); every
 * asynchronous method reports every error through its future and never throws; negative counter
 * deltas and a CAS token of 0 are refused before they reach memcached (which would read them as a
 * huge unsigned number and as "no check"); the item size limit is memcached's own to the byte.
 */
class ArgumentContractTest {

    private static final Duration NEGATIVE = Duration.ofSeconds(-1);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    static MemcachedClient client;
    static MemcachedClient nearClient;

    @BeforeAll
    static void connect() {
        client = MemcachedClient.builder().servers(memcached.addressList()).build();
        nearClient = MemcachedClient.builder().servers(memcached.addressList()).nearCache(Duration.ofMinutes(1), 100).build();
    }

    @AfterAll
    static void close() {
        client.close();
        nearClient.close();
    }

    @Test
    void aNullKeyIsAnInvalidKeyForEveryKeyedMethod() {
        for (MemcachedClient c : List.of(client, nearClient)) {
            Map<String, Function<String, CompletableFuture<?>>> calls = new LinkedHashMap<>();
            calls.put("get", c::get);
            calls.put("getFresh", c::getFresh);
            calls.put("gets", c::gets);
            calls.put("getAndTouch", key -> c.getAndTouch(key, Duration.ZERO));
            calls.put("touch", key -> c.touch(key, Duration.ZERO));
            calls.put("set", key -> c.set(key, "v", Duration.ZERO));
            calls.put("add", key -> c.add(key, "v", Duration.ZERO));
            calls.put("replace", key -> c.replace(key, "v", Duration.ZERO));
            calls.put("append", key -> c.append(key, "v"));
            calls.put("prepend", key -> c.prepend(key, "v"));
            calls.put("cas", key -> c.cas(key, "v", 1, Duration.ZERO));
            calls.put("delete", c::delete);
            calls.put("incr", key -> c.incr(key, 1));
            calls.put("decr", key -> c.decr(key, 1));
            calls.put("incr with initial", key -> c.incr(key, 1, 0, Duration.ZERO));
            calls.put("decr with initial", key -> c.decr(key, 1, 0, Duration.ZERO));
            calls.forEach((name, call) -> assertFailsThroughFuture(name, () -> call.apply(null), InvalidKeyException.class));
            BulkResult<Object> bulk = c.getMulti(Arrays.asList("present", null)).join();
            assertThat(bulk.get(null).error()).isInstanceOf(InvalidKeyException.class);
            assertThat(bulk.outcome("present")).isEqualTo(Outcome.NOT_FOUND);
            assertThat(c.deleteMulti(Arrays.asList("present", null)).join().get(null).error()).isInstanceOf(InvalidKeyException.class);
        }
    }

    @Test
    void everyAsyncMethodReportsBadArgumentsThroughItsFuture() {
        Map<String, Supplier<CompletableFuture<?>>> calls = new LinkedHashMap<>();
        calls.put("touch", () -> client.touch("k", NEGATIVE));
        calls.put("getAndTouch", () -> client.getAndTouch("k", NEGATIVE));
        calls.put("set", () -> client.set("k", "v", NEGATIVE));
        calls.put("add", () -> client.add("k", "v", NEGATIVE));
        calls.put("replace", () -> client.replace("k", "v", NEGATIVE));
        calls.put("cas", () -> client.cas("k", "v", 1, NEGATIVE));
        calls.put("incr with initial", () -> client.incr("k", 1, 0, NEGATIVE));
        calls.put("decr with initial", () -> client.decr("k", 1, 0, NEGATIVE));
        calls.put("setMulti", () -> client.setMulti(Map.of("k", "v"), NEGATIVE));
        calls.put("casMulti", () -> client.casMulti(Map.of("k", new CasValue<>("v", 1)), NEGATIVE));
        calls.put("flushAll", () -> client.flushAll(NEGATIVE));
        calls.forEach((name, call) -> assertFailsThroughFuture(name, call, IllegalArgumentException.class));
        Map<String, Supplier<CompletableFuture<?>>> nulls = new LinkedHashMap<>();
        nulls.put("getMulti", () -> client.getMulti(null));
        nulls.put("getsMulti", () -> client.getsMulti(null));
        nulls.put("deleteMulti", () -> client.deleteMulti(null));
        nulls.put("setMulti", () -> client.setMulti(null, Duration.ZERO));
        nulls.put("set with null expiry", () -> client.set("k", "v", null));
        nulls.put("stats", () -> client.stats(null));
        nulls.forEach((name, call) -> assertFailsThroughFuture(name, call, NullPointerException.class));
        // Nothing was stored or flushed by any of them.
        client.blocking().set("still-there", "yes", Duration.ZERO);
        assertThat(client.blocking().get("k")).isNull();
        assertThat(client.blocking().get("still-there")).isEqualTo("yes");
    }

    @Test
    void aNegativeCounterDeltaIsRefusedNotSentAsAHugeNumber() {
        client.blocking().set("counter", "5", Duration.ZERO);
        assertFailsThroughFuture("incr -1", () -> client.incr("counter", -1), IllegalArgumentException.class);
        assertThatThrownBy(() -> client.incr("counter", -1).join()).cause()
                .hasMessageContaining("unsigned").hasMessageContaining("18446744073709551615").hasMessageContaining("decr");
        assertFailsThroughFuture("decr -1", () -> client.decr("counter", -1), IllegalArgumentException.class);
        assertFailsThroughFuture("incr initial -1", () -> client.incr("fresh-counter", 1, -1, Duration.ZERO),
                IllegalArgumentException.class);
        assertThat(client.blocking().get("counter")).isEqualTo("5");
        assertThat(client.blocking().get("fresh-counter")).isNull();
        assertThat(client.incr("counter", 2).join()).isEqualTo(7L);
    }

    @Test
    void aZeroCasTokenIsRefusedInsteadOfStoringUnconditionally() {
        assertFailsThroughFuture("cas 0", () -> client.cas("cas-missing", "v", 0, Duration.ZERO), IllegalArgumentException.class);
        assertThatThrownBy(() -> client.cas("cas-missing", "v", 0, Duration.ZERO).join()).cause().hasMessageContaining("gets()");
        assertFailsThroughFuture("casMulti 0", () -> client.casMulti(Map.of("cas-missing", new CasValue<>("v", 0)), Duration.ZERO),
                IllegalArgumentException.class);
        assertThat(client.blocking().get("cas-missing")).isNull();
        // A real token still works.
        client.blocking().set("cas-present", "old", Duration.ZERO);
        CasValue<Object> current = client.gets("cas-present").join();
        assertThat(client.cas("cas-present", "new", current.cas(), Duration.ZERO).join()).isEqualTo(CasResult.STORED);
    }

    @Test
    void theDefaultItemSizeLimitIsMemcachedsToTheByte() {
        // A default memcached (-I 1m) stores a value of 1,048,507 bytes under a 10-byte key with
        // flags 0, and 4 bytes less with flags: the client lets exactly those through.
        String key = "ten-bytes!";
        assertLargestValue(key, Transcoder.bytes(), 1_048_576 - 59 - key.length());
        assertLargestValue(key, dev.grizzlyboot.memcached.transcoder.DefaultTranscoder.create(), 1_048_576 - 63 - key.length());
    }

    private static <T> void assertLargestValue(String key, Transcoder<T> transcoder, int largest) {
        @SuppressWarnings("unchecked")
        T fits = (T) BadInputTest.incompressible(largest);
        @SuppressWarnings("unchecked")
        T tooLarge = (T) BadInputTest.incompressible(largest + 1);
        client.set(key, fits, Duration.ZERO, transcoder).join();
        assertThat((byte[]) client.get(key, transcoder).join()).hasSize(largest);
        assertThatThrownBy(() -> client.set(key, tooLarge, Duration.ZERO, transcoder).join()).cause()
                .isInstanceOf(ValueTooLargeException.class).hasMessageContaining("maxItemSize");
        // One byte more is what the server itself refuses: the limit is not merely conservative.
        try (MemcachedClient lenient = MemcachedClient.builder().servers(memcached.addressList()).maxItemSize(2 * 1024 * 1024).build()) {
            assertThatThrownBy(() -> lenient.set(key, tooLarge, Duration.ZERO, transcoder).join()).cause()
                    .isInstanceOfSatisfying(ValueTooLargeException.class, e -> assertThat(e.status()).isEqualTo(ServerStatus.VALUE_TOO_LARGE))
                    .hasMessageNotContaining("maxItemSize");
        }
    }

    private static void assertFailsThroughFuture(String name, Supplier<CompletableFuture<?>> call, Class<? extends Exception> type) {
        CompletableFuture<?> future;
        try {
            future = call.get();
        } catch (RuntimeException e) {
            throw new AssertionError(name + " threw " + e + " instead of failing its future", e);
        }
        assertThatThrownBy(future::join).as(name).isInstanceOf(CompletionException.class).cause().isInstanceOf(type);
    }
}
