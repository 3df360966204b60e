package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.grizzlyboot.memcached.transcoder.CachedData;
import dev.grizzlyboot.memcached.transcoder.Transcoder;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import net.spy.memcached.AddrUtil;
import net.spy.memcached.BinaryConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A getMulti over one server, where every key goes in one batch whose results become the call's
 * without a copy, read through {@link BulkResult}'s maps: values of every size around the read
 * buffers, misses, repeats, odd keys, checked against spymemcached reading the same keys, and a
 * server killed while calls are in flight.
 */
class BulkResultTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    MemcachedClient client;
    BlockingMemcachedClient blocking;

    @BeforeEach
    void connect() {
        client = MemcachedClient.builder().servers(memcached.addresses()).operationTimeout(Duration.ofSeconds(2)).build();
        blocking = client.blocking();
    }

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void getMultiReadsWhatSpymemcachedReads() throws Exception {
        int[] sizes = {0, 1, 23, 24, 25, 1023, 1024, 1025, 8191, 8192, 8193, 16384, 65535, 65536, 65537, 500_000, 1_000_000};
        String prefix = UUID.randomUUID().toString();
        Map<String, String> stored = new LinkedHashMap<>();
        List<String> call = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < sizes.length * 3; i++) {
            String key = prefix + ":" + i;
            String value = text(random, sizes[i % sizes.length]);
            // Flags 0 and UTF-8: the form spymemcached reads as a string.
            client.set(key, value, Duration.ZERO, Transcoder.string()).get();
            stored.put(key, value);
            call.add(key);
            call.add(prefix + ":missing:" + i);
            if (i % 4 == 0) {
                call.add(key);
            }
        }

        BulkResult<String> ours = client.getMulti(call, Transcoder.string()).get();
        net.spy.memcached.MemcachedClient spy = new net.spy.memcached.MemcachedClient(new BinaryConnectionFactory(),
                AddrUtil.getAddresses(memcached.first().address()));
        try {
            Map<String, Object> theirs = spy.getBulk(call);
            assertThat(theirs).hasSize(stored.size());
            assertThat(ours.values()).isEqualTo(theirs).isEqualTo(stored);
        } finally {
            spy.shutdown();
        }
        assertThat(new ArrayList<>(ours.asMap().keySet())).isEqualTo(new ArrayList<>(new LinkedHashSet<>(call)));
        assertThat(new ArrayList<>(ours.values().keySet())).isEqualTo(new ArrayList<>(stored.keySet()));
        assertThat(ours.size()).isEqualTo(stored.size() * 2);
        call.stream().filter(key -> key.contains(":missing:")).forEach(key -> {
            assertThat(ours.outcome(key)).isEqualTo(Outcome.NOT_FOUND);
            assertThat(ours.values()).doesNotContainKey(key);
        });
        assertThat(ours.errors()).isEmpty();
    }

    @Test
    void theResultsMapsAnswerLookupsAndCannotBeChanged() {
        String key = "bulk-result:" + UUID.randomUUID();
        blocking.set(key, "v", Duration.ZERO);
        // "Aa" and "BB" share a hash code: two keys in one slot chain.
        List<String> call = Arrays.asList(key + "Aa", key, null, key + "BB", key, null);
        blocking.set(key + "BB", "bb", Duration.ZERO);

        BulkResult<Object> result = blocking.getMulti(call);
        assertThat(result.size()).isEqualTo(4);
        assertThat(new ArrayList<>(result.asMap().keySet())).containsExactly(key + "Aa", key, null, key + "BB");
        assertThat(result.outcome(key + "Aa")).isEqualTo(Outcome.NOT_FOUND);
        assertThat(result.get(key)).isEqualTo(new KeyResult<>(Outcome.FOUND, "v", 0, null));
        assertThat(result.outcome(null)).isEqualTo(Outcome.ERROR);
        assertThat(result.errors()).containsOnlyKeys((String) null);
        assertThat(result.errors().get(null)).isInstanceOf(InvalidKeyException.class);
        assertThat(result.get("not-in-the-call")).isNull();
        assertThat(result.asMap()).doesNotContainKey("not-in-the-call").containsKey(null);

        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put(key, "v");
        expected.put(key + "BB", "bb");
        assertThat(result.values()).isEqualTo(expected).hasSameHashCodeAs(expected);
        assertThat(result.values()).hasToString(expected.toString());
        assertThat(result.values().get(key + "Aa")).isNull();
        assertThatThrownBy(() -> result.values().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> result.asMap().remove(key)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> result.asMap().entrySet().iterator().next().setValue(null))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void thousandsOfKeysWithOneHashCodeAreStoredReadAndDeletedLikeSpymemcachedDoes() throws Exception {
        // Crafted keys a caller might pass on from a request: "Aa"/"BB" pairs, one String.hashCode for all.
        List<String> keys = KeyIndexTest.collidingKeys(4096);
        List<String> stored = keys.subList(0, 3000);
        List<String> deleted = stored.subList(0, 1000);
        Map<String, Object> values = new LinkedHashMap<>();
        stored.forEach(key -> values.put(key, "value of " + key));
        blocking.deleteMulti(keys);

        BulkResult<Object> set = blocking.setMulti(values, Duration.ZERO);
        assertThat(set.size()).isEqualTo(stored.size());
        assertThat(set.asMap().values()).extracting(KeyResult::outcome).containsOnly(Outcome.STORED);
        BulkResult<Object> read = blocking.getMulti(keys);
        BulkResult<Object> delete = blocking.deleteMulti(deleted);
        BulkResult<Object> readAgain = blocking.getMulti(keys);

        assertThat(new ArrayList<>(read.values().keySet())).isEqualTo(stored);
        assertThat(read.values()).isEqualTo(values);
        assertThat(read.outcome(keys.get(4095))).isEqualTo(Outcome.NOT_FOUND);
        assertThat(delete.asMap().values()).extracting(KeyResult::outcome).hasSize(1000).containsOnly(Outcome.DELETED);
        Map<String, Object> remaining = new LinkedHashMap<>(values);
        deleted.forEach(remaining::remove);
        assertThat(readAgain.values()).isEqualTo(remaining);
        deleted.forEach(key -> assertThat(readAgain.outcome(key)).as(key).isEqualTo(Outcome.NOT_FOUND));
        net.spy.memcached.MemcachedClient spy = new net.spy.memcached.MemcachedClient(new BinaryConnectionFactory(),
                AddrUtil.getAddresses(memcached.first().address()));
        try {
            assertThat(spy.getBulk(keys)).isEqualTo(readAgain.values());
        } finally {
            spy.shutdown();
        }
    }

    @Test
    void aValueTheTranscoderCannotReadFailsOnlyItsOwnKey() throws Exception {
        String prefix = "bulk-result:" + UUID.randomUUID() + ":";
        List<String> call = List.of(prefix + "good", prefix + "bad", prefix + "missing", prefix + "also-good");
        blocking.set(prefix + "good", "g", Duration.ZERO);
        blocking.set(prefix + "bad", "unreadable", Duration.ZERO);
        blocking.set(prefix + "also-good", "a", Duration.ZERO);
        Transcoder<String> picky = new Transcoder<>() {
            @Override
            public CachedData encode(String value) {
                return Transcoder.string().encode(value);
            }

            @Override
            public String decode(CachedData data) {
                String text = Transcoder.string().decode(data);
                if (text.equals("unreadable")) {
                    throw new IllegalStateException("cannot read " + text);
                }
                return text;
            }
        };

        BulkResult<String> result = client.getMulti(call, picky).get();
        assertThat(result.outcome(prefix + "bad")).isEqualTo(Outcome.ERROR);
        assertThat(result.get(prefix + "bad").error()).isInstanceOf(TranscoderException.class)
                .hasMessageContaining(prefix + "bad").hasRootCauseMessage("cannot read unreadable");
        assertThat(result.errors()).containsOnlyKeys(prefix + "bad");
        assertThat(result.get(prefix + "good")).isEqualTo(new KeyResult<>(Outcome.FOUND, "g", 0, null));
        assertThat(result.get(prefix + "missing")).isEqualTo(new KeyResult<>(Outcome.NOT_FOUND, null, 0, null));
        assertThat(result.values()).containsExactly(Map.entry(prefix + "good", "g"), Map.entry(prefix + "also-good", "a"));
        assertThat(result.asMap().values()).extracting(KeyResult::outcome)
                .containsExactly(Outcome.FOUND, Outcome.ERROR, Outcome.NOT_FOUND, Outcome.FOUND);
        assertThat(result.asMap().get(prefix + "also-good").value()).isEqualTo("a");
    }

    @Test
    void aCollectionThatUnderstatesItsSizeStillHasEveryKeyRead() {
        String prefix = "bulk-result:" + UUID.randomUUID() + ":";
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            keys.add(prefix + i);
            blocking.set(prefix + i, "v" + i, Duration.ZERO);
        }
        Collection<String> understated = new AbstractCollection<>() {
            @Override
            public Iterator<String> iterator() {
                return keys.iterator();
            }

            @Override
            public int size() {
                return 1;
            }
        };

        BulkResult<Object> result = blocking.getMulti(understated);
        assertThat(result.size()).isEqualTo(300);
        assertThat(new ArrayList<>(result.values().keySet())).isEqualTo(keys);
        for (int i = 0; i < 300; i++) {
            assertThat(result.values().get(prefix + i)).isEqualTo("v" + i);
        }
    }

    @Test
    void aServerKilledWhileCallsAreInFlightFailsTheirKeysAndNeverMixesAnswers() throws Exception {
        String prefix = "bulk-result:" + UUID.randomUUID() + ":";
        List<String> keys = new ArrayList<>();
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < 200; i++) {
            keys.add(prefix + i);
            values.put(prefix + i, text(new Random(i), 100 + i * 7));
        }
        assertThat(blocking.setMulti(values, Duration.ZERO).errors()).isEmpty();

        AtomicBoolean running = new AtomicBoolean(true);
        List<BulkResult<Object>> complete = new CopyOnWriteArrayList<>();
        List<BulkResult<Object>> failed = new CopyOnWriteArrayList<>();
        List<Throwable> unexpected = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> callers = new ArrayList<>();
        for (int caller = 0; caller < 4; caller++) {
            callers.add(CompletableFuture.runAsync(() -> {
                while (running.get()) {
                    try {
                        // The future, not the blocking call: its wall-clock guard is not under test here.
                        BulkResult<Object> result = client.getMulti(keys).get();
                        (result.errors().isEmpty() ? complete : failed).add(result);
                    } catch (Exception e) {
                        unexpected.add(e);
                    }
                }
            }));
        }
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> complete.size() >= 20);
            memcached.first().kill();
            await().atMost(Duration.ofSeconds(20)).until(() -> failed.size() >= 4);
        } finally {
            running.set(false);
            CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get();
        }

        assertThat(unexpected).isEmpty();
        for (BulkResult<Object> result : complete) {
            assertThat(result.values()).isEqualTo(values);
        }
        for (BulkResult<Object> result : failed) {
            // A key is either its own value or an error: never another key's value, never a silent miss.
            for (String key : keys) {
                KeyResult<Object> one = result.get(key);
                if (one.outcome() == Outcome.FOUND) {
                    assertThat(one.value()).as(key).isEqualTo(values.get(key));
                } else {
                    assertThat(one.outcome()).as(key).isEqualTo(Outcome.ERROR);
                    assertThat(one.error()).as(key).isInstanceOf(MemcachedException.class);
                }
            }
        }
    }

    private static String text(Random random, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(chars);
    }
}
