package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Bulk operations report every key's outcome, across servers, in call order. */
class BulkOperationsTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    static MemcachedClient client;
    static BlockingMemcachedClient blocking;

    @BeforeAll
    static void connect() {
        client = MemcachedClient.builder().servers(memcached.addresses()).build();
        blocking = client.blocking();
    }

    @AfterAll
    static void close() {
        client.close();
    }

    static List<String> keys(int count) {
        String prefix = UUID.randomUUID().toString();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(prefix + ":" + i);
        }
        return keys;
    }

    @Test
    void setMultiThenGetMultiAcrossBothServers() {
        List<String> keys = keys(200);
        Map<String, Object> values = new LinkedHashMap<>();
        keys.forEach(k -> values.put(k, "value-of-" + k));
        BulkResult<Object> stored = blocking.setMulti(values, Duration.ZERO);
        assertThat(stored.asMap().values()).allMatch(r -> r.outcome() == Outcome.STORED);
        assertThat(keys.stream().map(client::serverFor).distinct()).hasSize(2);

        List<String> withMisses = new ArrayList<>(keys);
        withMisses.add("missing-" + UUID.randomUUID());
        BulkResult<Object> read = blocking.getMulti(withMisses);
        assertThat(read.size()).isEqualTo(201);
        assertThat(read.values()).isEqualTo(values);
        assertThat(new ArrayList<>(read.asMap().keySet())).isEqualTo(withMisses);
        assertThat(read.outcome(withMisses.get(200))).isEqualTo(Outcome.NOT_FOUND);
        // Each value really is on the server Ketama picked, checked over the text protocol.
        String sample = keys.get(17);
        int owner = client.servers().indexOf(client.serverFor(sample));
        assertThat(memcached.get(owner).textCommand("get " + sample).get(0)).startsWith("VALUE " + sample);
        assertThat(memcached.get(1 - owner).textCommand("get " + sample)).containsExactly("END");
    }

    /** A server's share of a bulk call is sized for an even spread; a call whose keys all live on one server outgrows it. */
    @Test
    void bulkCallsWhoseKeysAllLiveOnOneServerKeepEveryKeyInOrder() {
        ServerAddress first = client.servers().get(0);
        List<String> keys = new ArrayList<>();
        for (String key : keys(2_000)) {
            if (client.serverFor(key).equals(first)) {
                keys.add(key);
            }
        }
        assertThat(keys).hasSizeGreaterThan(500);
        Map<String, Object> values = new LinkedHashMap<>();
        keys.forEach(k -> values.put(k, "only-on-first-" + k));

        assertThat(blocking.setMulti(values, Duration.ZERO).asMap().values()).allMatch(r -> r.outcome() == Outcome.STORED);
        BulkResult<Object> read = blocking.getMulti(keys);
        assertThat(new ArrayList<>(read.asMap().keySet())).isEqualTo(keys);
        assertThat(read.values()).isEqualTo(values);
        assertThat(blocking.deleteMulti(keys).asMap().values()).allMatch(r -> r.outcome() == Outcome.DELETED);
    }

    @Test
    void deleteMultiReportsDeletedAndNotFound() {
        List<String> keys = keys(10);
        blocking.setMulti(Map.of(keys.get(0), "a", keys.get(1), "b"), Duration.ZERO);
        BulkResult<Object> deleted = blocking.deleteMulti(keys);
        assertThat(deleted.outcome(keys.get(0))).isEqualTo(Outcome.DELETED);
        assertThat(deleted.outcome(keys.get(1))).isEqualTo(Outcome.DELETED);
        assertThat(deleted.outcome(keys.get(5))).isEqualTo(Outcome.NOT_FOUND);
        assertThat(blocking.getMulti(keys).values()).isEmpty();
    }

    @Test
    void getsMultiAndCasMultiReportStoredExistsAndNotFound() {
        List<String> keys = keys(3);
        blocking.setMulti(Map.of(keys.get(0), "a0", keys.get(1), "b0"), Duration.ZERO);
        BulkResult<Object> read = blocking.getsMulti(keys);
        long casA = read.get(keys.get(0)).cas();
        long casB = read.get(keys.get(1)).cas();
        assertThat(casA).isNotZero();
        blocking.set(keys.get(1), "b-changed-meanwhile", Duration.ZERO);

        Map<String, CasValue<?>> updates = new LinkedHashMap<>();
        updates.put(keys.get(0), new CasValue<>("a1", casA));
        updates.put(keys.get(1), new CasValue<>("b1", casB));
        updates.put(keys.get(2), new CasValue<>("c1", 99));
        BulkResult<Object> result = blocking.casMulti(updates, Duration.ZERO);
        assertThat(result.outcome(keys.get(0))).isEqualTo(Outcome.STORED);
        assertThat(result.outcome(keys.get(1))).isEqualTo(Outcome.EXISTS);
        assertThat(result.outcome(keys.get(2))).isEqualTo(Outcome.NOT_FOUND);
        assertThat(blocking.get(keys.get(0))).isEqualTo("a1");
        assertThat(blocking.get(keys.get(1))).isEqualTo("b-changed-meanwhile");
    }

    @Test
    void invalidKeysAndOversizedValuesFailOnlyThemselves() {
        List<String> keys = keys(2);
        Map<String, Object> values = new LinkedHashMap<>();
        values.put(keys.get(0), "fine");
        values.put("bad key", "has a space");
        values.put(keys.get(1), incompressible(2 * 1024 * 1024));
        BulkResult<Object> result = blocking.setMulti(values, Duration.ZERO);
        assertThat(result.outcome(keys.get(0))).isEqualTo(Outcome.STORED);
        assertThat(result.get("bad key").error()).isInstanceOf(InvalidKeyException.class);
        assertThat(result.get(keys.get(1)).error()).isInstanceOf(ValueTooLargeException.class);
        assertThat(result.errors()).containsOnlyKeys("bad key", keys.get(1));
        assertThat(blocking.get(keys.get(0))).isEqualTo("fine");
    }

    @Test
    void serverSideErrorsArePerKey() {
        // The client's own limit is raised so the server itself refuses the value.
        try (MemcachedClient lenient = MemcachedClient.builder().servers(memcached.addresses())
                .maxItemSize(4 * 1024 * 1024).build()) {
            List<String> keys = keys(3);
            Map<String, Object> values = new LinkedHashMap<>();
            values.put(keys.get(0), "small");
            values.put(keys.get(1), incompressible(1024 * 1024 + 1));
            values.put(keys.get(2), "also small");
            BulkResult<Object> result = lenient.blocking().setMulti(values, Duration.ZERO);
            assertThat(result.outcome(keys.get(0))).isEqualTo(Outcome.STORED);
            assertThat(result.get(keys.get(1)).error()).isInstanceOf(ValueTooLargeException.class);
            assertThat(result.outcome(keys.get(2))).isEqualTo(Outcome.STORED);
        }
    }

    @Test
    void duplicateKeysAreReadOnce() {
        List<String> keys = keys(1);
        blocking.set(keys.get(0), "v", Duration.ZERO);
        // Equal but not the same object, as keys from a caller usually are.
        BulkResult<Object> result = blocking.getMulti(List.of(keys.get(0), new String(keys.get(0))));
        assertThat(result.size()).isEqualTo(1);
        assertThat(result.values()).containsEntry(keys.get(0), "v");
    }

    @Test
    void concurrentGetMultisGetEveryKeysOwnValueAtEverySizeBoundary() throws Exception {
        // Sizes around the header (24 B), the flags (4 B) and typical read-buffer sizes, so that
        // responses end mid-header and mid-body and arrive in composite buffers.
        int[] sizes = {0, 1, 3, 4, 5, 23, 24, 25, 127, 128, 1023, 1024, 8191, 8192, 8193, 65535, 65536, 65537, 300_000};
        Map<String, byte[]> stored = new LinkedHashMap<>();
        List<String> keys = new ArrayList<>();
        for (String key : keys(sizes.length * 2)) {
            // Each key's own bytes: a value handed to another key would not match.
            byte[] value = new byte[sizes[stored.size() % sizes.length]];
            new Random(key.hashCode()).nextBytes(value);
            stored.put(key, value);
            keys.add(key);
            keys.add("missing-" + key);
        }
        stored.forEach((key, value) -> blocking.set(key, value, Duration.ZERO));
        assertThat(stored.keySet().stream().map(client::serverFor).distinct()).hasSize(2);

        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> rounds = new ArrayList<>();
            for (int caller = 0; caller < 8; caller++) {
                List<String> order = new ArrayList<>(keys);
                Collections.shuffle(order, new Random(caller));
                rounds.add(callers.submit(() -> {
                    for (int round = 0; round < 20; round++) {
                        BulkResult<Object> read = blocking.getMulti(order);
                        assertThat(new ArrayList<>(read.asMap().keySet())).isEqualTo(order);
                        for (String key : order) {
                            byte[] expected = stored.get(key);
                            if (expected == null) {
                                assertThat(read.outcome(key)).as(key).isEqualTo(Outcome.NOT_FOUND);
                            } else {
                                assertThat(read.outcome(key)).as(key).isEqualTo(Outcome.FOUND);
                                assertThat((byte[]) read.get(key).value()).as(key).isEqualTo(expected);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> round : rounds) {
                round.get(60, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
        }
    }

    /** Random bytes, so that compression cannot shrink them under the limit. */
    static byte[] incompressible(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }
}
