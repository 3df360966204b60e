package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.grizzlyboot.memcached.transcoder.Transcoder;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import net.spy.memcached.CASResponse;
import net.spy.memcached.CASValue;
import net.spy.memcached.CachedData;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.ConnectionFactoryBuilder.Protocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential test against spymemcached 2.12.3, each client on a real memcached of its own (ours on
 * server A, spymemcached on B). A seeded generator applies the same operations to both, over 20 keys
 * so that they collide: set, add, replace, append, prepend, delete, touch, getAndTouch, get, gets +
 * cas, incr/decr with and without an initial value, getMulti, getsMulti, setMulti, deleteMulti. Each
 * outcome ("STORED", "EXISTS", "VALUE 42", "text abc", ...) must be the same on both sides; after each
 * operation the items it touched, and at the end every key, must be the same on both servers (value,
 * flags, whether it expires), read with {@code mg key v f t} over each server's text protocol.
 *
 * <p>Why spymemcached: the long-standing Java client, on the same binary protocol, with answers settled
 * for years, so a difference is most likely ours. Its quirks are modelled: its incr/decr answer -1 for
 * a missing key and for a non-numeric value (ours throws {@link KeyNotFoundException} or
 * {@link MemcachedStatusException} NON_NUMERIC_VALUE), told apart by reading server B beforehand; with
 * an initial value it trips its own assertion on a non-numeric value, so that is not generated. CAS
 * tokens differ per server: each side casts with the token it read.
 *
 * <p>Not compared, deliberately: exact TTLs (the servers' clocks tick apart); numbers, serialized and
 * compressed values (the default transcoders differ there by design, see {@link JavaClientValuesTest});
 * the item size limit and invalid keys ({@link BadInputTest}). Values are short UTF-8 strings and byte
 * arrays, which both store alike; counters stay under 10^6, clear of memcached 1.6.18's bug with
 * counters of 2^63 and more and of spymemcached's -1. memcached pads a counter it rewrites in place
 * with spaces, differently on the two servers, so values are compared without spaces (generated
 * values have none) and a counter is never appended to.
 */
class SpymemcachedDifferentialTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    private static final int STEPS = 500;

    /** Outcomes every seed must reach, so that the comparison is never vacuous. */
    private static final List<String> REACHED = List.of("set STORED", "add STORED", "add NOT_STORED", "replace STORED",
            "replace NOT_STORED", "append STORED", "append NOT_STORED", "prepend STORED", "prepend NOT_STORED", "delete DELETED",
            "delete NOT_FOUND", "touch TOUCHED", "touch NOT_FOUND", "getAndTouch HIT", "getAndTouch NOT_FOUND", "get HIT",
            "get NOT_FOUND", "gets HIT", "gets NOT_FOUND", "cas STORED", "cas EXISTS", "cas NOT_FOUND", "incr VALUE", "incr NOT_FOUND",
            "incr NON_NUMERIC", "decr VALUE", "decr NOT_FOUND", "decr NON_NUMERIC", "getMulti HIT", "getMulti NOT_FOUND",
            "getsMulti HIT", "getsMulti NOT_FOUND", "setMulti STORED", "deleteMulti DELETED", "deleteMulti NOT_FOUND");

    static MemcachedClient ours;
    static net.spy.memcached.MemcachedClient spy;

    @BeforeAll
    static void connect() throws Exception {
        ours = MemcachedClient.builder().servers(memcached.get(0).address()).operationTimeout(Duration.ofSeconds(5)).build();
        // The same 5 s as ours, so that a stall on a busy machine is not read as a difference.
        spy = new net.spy.memcached.MemcachedClient(new ConnectionFactoryBuilder().setProtocol(Protocol.BINARY)
                .setOpTimeout(5_000).build(), List.of(memcached.get(1).socketAddress()));
    }

    @AfterAll
    static void close() {
        ours.close();
        spy.shutdown(5, TimeUnit.SECONDS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 20261128})
    void sameOutcomesAndItemsAsSpymemcached(long seed) {
        Run run = new Run(seed);
        for (run.step = 0; run.step < STEPS; run.step++) {
            run.randomOperation();
        }
        run.operation = "final comparison";
        run.compareItems(run.keys);
        run.getMulti(run.keys);
        assertThat(run.seen).as("seed " + seed + ": outcomes reached").containsAll(REACHED);
    }

    @Test
    void aDifferenceIsReported() {
        Run run = new Run(-1);
        String key = run.keys.get(0);
        ours.blocking().set(key, "onlyOnA", Duration.ZERO);
        assertThatThrownBy(() -> run.compareItems(List.of(key))).isInstanceOf(AssertionError.class)
                .hasMessageContaining("seed -1, step 0").hasMessageContaining(key);
        assertThatThrownBy(() -> run.compare("add " + key, () -> "STORED", () -> "NOT_STORED"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("add " + key);
        ours.blocking().delete(key);
    }

    /** One seeded sequence of operations. */
    static final class Run {

        final long seed;
        final Random random;
        final List<String> keys = new ArrayList<>();
        /** Our client, blocking; spymemcached's synchronous calls are its counterpart. */
        final BlockingMemcachedClient our = ours.blocking();
        /** Each side's last CAS token per key, from its own gets; null after a miss. */
        final Map<String, Long> oursTokens = new HashMap<>();
        final Map<String, Long> spyTokens = new HashMap<>();
        /** "operation OUTCOME" pairs reached. */
        final Set<String> seen = new TreeSet<>();
        /** The keys this step touched, compared on both servers after it. */
        final Set<String> touched = new LinkedHashSet<>();
        int step;
        String operation = "setup";

        Run(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
            IntStream.range(0, 20).forEach(i -> keys.add("diff" + seed + ":k" + i));
        }

        void randomOperation() {
            touched.clear();
            String key = key();
            String text = text();
            Object value = random.nextInt(5) == 0 ? text.getBytes(StandardCharsets.UTF_8) : text;
            int expiry = random.nextInt(3) == 0 ? 1_000 + random.nextInt(5_000) : 0;
            Duration ttl = Duration.ofSeconds(expiry);
            String with = " " + show(value) + " expiry " + expiry;
            switch (random.nextInt(18)) {
                case 0 -> compare("set " + key + " " + text + " expiry " + expiry, () -> {
                    our.set(key, text, ttl, Transcoder.string());
                    return "STORED";
                }, () -> stored(spy.set(key, expiry, text.getBytes(StandardCharsets.UTF_8), SPY_RAW).get()));
                case 1 -> compare("add " + key + with, () -> stored(our.add(key, value, ttl)),
                        () -> stored(spy.add(key, expiry, value).get()));
                case 2 -> compare("replace " + key + with, () -> stored(our.replace(key, value, ttl)),
                        () -> stored(spy.replace(key, expiry, value).get()));
                case 3, 4 -> concat(key, word());
                case 5 -> compare("delete " + key, () -> our.delete(key) ? "DELETED" : "NOT_FOUND",
                        () -> spy.delete(key).get() ? "DELETED" : "NOT_FOUND");
                case 6 -> compare("touch " + key + " expiry " + expiry, () -> our.touch(key, ttl) ? "TOUCHED" : "NOT_FOUND",
                        () -> spy.touch(key, expiry).get() ? "TOUCHED" : "NOT_FOUND");
                case 7 -> compare("getAndTouch " + key + " expiry " + expiry, () -> show(our.getAndTouch(key, ttl)),
                        () -> show(spy.getAndTouch(key, expiry)));
                case 8 -> compare("get " + key, () -> show(our.get(key, Transcoder.bytes())), () -> show(spy.get(key, SPY_RAW)));
                case 9 -> gets(key);
                case 10, 11 -> cas(key, value, expiry);
                case 12, 13 -> counter(key, random.nextBoolean(), expiry);
                case 14 -> getMulti(someKeys(key));
                case 15 -> getsMulti(someKeys(key));
                case 16 -> setMulti(someKeys(key), expiry);
                default -> {
                    List<String> asked = someKeys(key);
                    compareBulk("deleteMulti " + asked, asked, () -> our.deleteMulti(asked),
                            k -> () -> spy.delete(k).get() ? "DELETED" : "NOT_FOUND");
                }
            }
            compareItems(touched);
        }

        /** Never an append to a counter: memcached reads a padded "5 " + "x" as 5, but "5x" as not a number. */
        void concat(String key, String word) {
            boolean append = random.nextBoolean() && !isCounter(read(memcached.get(1), key));
            compare((append ? "append " : "prepend ") + key + " " + word,
                    () -> stored(append ? our.append(key, word) : our.prepend(key, word)),
                    () -> stored((append ? spy.append(key, word) : spy.prepend(key, word)).get()));
        }

        void gets(String key) {
            compare("gets " + key, () -> {
                CasValue<Object> read = our.gets(key);
                oursTokens.put(key, read == null ? null : read.cas());
                return show(read == null ? null : read.value());
            }, () -> spyGets(key));
        }

        String spyGets(String key) {
            CASValue<Object> read = spy.gets(key);
            spyTokens.put(key, read == null ? null : read.getCas());
            return show(read);
        }

        /** With each side's own token: the one it read last (stale if the key changed since), or a fresh one. */
        void cas(String key, Object value, int expiry) {
            if (oursTokens.get(key) == null || random.nextInt(3) == 0) {
                gets(key);
            }
            Long oursToken = oursTokens.get(key);
            Long spyToken = spyTokens.get(key);
            if (oursToken != null) {
                compare("cas " + key + " " + show(value) + " expiry " + expiry,
                        () -> our.cas(key, value, oursToken, Duration.ofSeconds(expiry)).name(), () -> {
                            CASResponse response = spy.cas(key, spyToken, expiry, value);
                            return response == CASResponse.OK ? "STORED" : response.name();
                        });
            }
        }

        /** Small deltas and initial values; spymemcached's -1 is read against what server B held before the call. */
        void counter(String key, boolean incr, int expiry) {
            Item before = read(memcached.get(1), key);
            boolean withInitial = random.nextBoolean() && (before == null || isCounter(before));
            long delta = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(200);
            long initial = random.nextInt(1000);
            Duration ttl = Duration.ofSeconds(expiry);
            String initially = withInitial ? " initial " + initial + " expiry " + expiry : "";
            compare((incr ? "incr " : "decr ") + key + " " + delta + initially, () -> {
                long result = withInitial ? (incr ? our.incr(key, delta, initial, ttl) : our.decr(key, delta, initial, ttl))
                        : incr ? our.incr(key, delta) : our.decr(key, delta);
                return "VALUE " + result;
            }, () -> {
                long result = withInitial ? (incr ? spy.incr(key, delta, initial, expiry) : spy.decr(key, delta, initial, expiry))
                        : incr ? spy.incr(key, delta) : spy.decr(key, delta);
                return result != -1 ? "VALUE " + result : before == null ? "NOT_FOUND" : "NON_NUMERIC";
            });
        }

        /** Against getBulk, both reading the stored bytes. */
        void getMulti(List<String> asked) {
            Map<String, byte[]> found = spy.getBulk(asked, SPY_RAW);
            compareBulk("getMulti " + asked, asked, () -> ours.getMulti(asked, Transcoder.bytes()).join(), k -> () -> show(found.get(k)));
        }

        /** Against spymemcached's gets per key (it has no bulk gets); each side keeps its own tokens. */
        void getsMulti(List<String> asked) {
            compareBulk("getsMulti " + asked, asked, () -> {
                BulkResult<Object> read = our.getsMulti(asked);
                read.asMap().forEach((k, result) -> oursTokens.put(k, result.outcome() == Outcome.FOUND ? result.cas() : null));
                return read;
            }, k -> () -> spyGets(k));
        }

        void setMulti(List<String> asked, int expiry) {
            Map<String, Object> values = new LinkedHashMap<>();
            asked.forEach(k -> values.put(k, text()));
            compareBulk("setMulti " + values + " expiry " + expiry, asked, () -> our.setMulti(values, Duration.ofSeconds(expiry)),
                    k -> () -> stored(spy.set(k, expiry, values.get(k)).get()));
        }

        // ---- comparison -------------------------------------------------------------------------

        void compare(String operation, Callable<String> oursCall, Callable<String> spyCall) {
            this.operation = operation;
            String o = outcome(oursCall);
            reached(o);
            assertThat(o).as(where("outcome (ours on A; expected: spymemcached's on B)")).isEqualTo(outcome(spyCall));
        }

        /** One of our bulk calls against spymemcached's answer for each key. */
        void compareBulk(String operation, List<String> asked, Supplier<BulkResult<?>> oursCall,
                Function<String, Callable<String>> spyCall) {
            this.operation = operation;
            BulkResult<?> result = oursCall.get();
            Map<String, String> o = new LinkedHashMap<>();
            Map<String, String> s = new LinkedHashMap<>();
            for (String key : asked) {
                KeyResult<?> one = result.get(key);
                o.put(key, one == null ? "MISSING" : one.outcome() == Outcome.FOUND ? show(one.value())
                        : one.outcome() == Outcome.ERROR ? "ERROR " + one.error() : one.outcome().name());
                s.put(key, outcome(spyCall.apply(key)));
            }
            o.values().forEach(this::reached);
            assertThat(o).as(where("outcome per key (ours on A; expected: spymemcached's on B)")).isEqualTo(s);
        }

        private void reached(String outcome) {
            String kind = outcome.startsWith("text ") || outcome.startsWith("bytes ") ? "HIT" : outcome.split(" ")[0];
            seen.add(operation.split(" ")[0] + " " + kind);
        }

        /** The items on both servers, each read over its own text protocol. */
        void compareItems(Iterable<String> keys) {
            keys.forEach(key -> assertThat(read(memcached.get(0), key))
                    .as(where("item " + key + " on A (ours); expected: on B (spymemcached)")).isEqualTo(read(memcached.get(1), key)));
        }

        String where(String what) {
            return "seed " + seed + ", step " + step + ", " + operation + ": " + what;
        }

        // ---- generation -------------------------------------------------------------------------

        String key() {
            String key = keys.get(random.nextInt(keys.size()));
            touched.add(key);
            return key;
        }

        /** {@code first} and up to five more, distinct. */
        List<String> someKeys(String first) {
            Set<String> some = new LinkedHashSet<>(List.of(first));
            for (int count = 1 + random.nextInt(6); some.size() < count;) {
                some.add(key());
            }
            return new ArrayList<>(some);
        }

        /** A small number, so that counters start from it, or a word. */
        String text() {
            return random.nextInt(3) == 0 ? String.valueOf(random.nextInt(1000)) : word();
        }

        /** Letters only, no spaces. */
        String word() {
            String letters = "abcdefghijklmnopqrstuvwxyzéü日";
            return random.ints(1 + random.nextInt(10), 0, letters.length()).mapToObj(i -> letters.substring(i, i + 1))
                    .collect(Collectors.joining());
        }
    }

    /** An item as memcached's meta get reports it, without spaces (a counter's padding). */
    record Item(String value, int flags, boolean expires) {
    }

    static Item read(MemcachedProcess server, String key) {
        List<String> reply = server.textCommand("mg " + key + " v f t");
        if (reply.get(0).equals("EN")) {
            return null;
        }
        String[] header = reply.get(0).split(" ");
        return new Item(reply.get(1).replace(" ", ""), Integer.parseInt(header[2].substring(1)), !header[3].equals("t-1"));
    }

    static boolean isCounter(Item item) {
        return item != null && item.value.matches("[0-9]+");
    }

    /** A value read back: its type and its text without spaces (a counter's padding), or NOT_FOUND. */
    static String show(Object value) {
        if (value instanceof CASValue<?> read) {
            return show(read.getValue());
        }
        if (value instanceof byte[] bytes) {
            return "bytes " + new String(bytes, StandardCharsets.UTF_8).replace(" ", "");
        }
        return value == null ? "NOT_FOUND" : "text " + value.toString().replace(" ", "");
    }

    static String stored(boolean stored) {
        return stored ? "STORED" : "NOT_STORED";
    }

    /** What a call answered; the statuses ours reports as exceptions rendered as spymemcached's answers are. */
    static String outcome(Callable<String> call) {
        try {
            return call.call();
        } catch (MemcachedStatusException e) {
            return switch (e.status()) {
                case KEY_NOT_FOUND -> "NOT_FOUND";
                case NON_NUMERIC_VALUE -> "NON_NUMERIC";
                default -> "STATUS " + e.status();
            };
        } catch (Exception e) {
            return "EXCEPTION " + e;
        }
    }

    /** spymemcached reading and writing an item's bytes as they are, with flags 0 (as our Transcoder.bytes()). */
    static final net.spy.memcached.transcoders.Transcoder<byte[]> SPY_RAW = new net.spy.memcached.transcoders.Transcoder<>() {
        @Override
        public boolean asyncDecode(CachedData data) {
            return false;
        }

        @Override
        public CachedData encode(byte[] value) {
            return new CachedData(0, value, getMaxSize());
        }

        @Override
        public byte[] decode(CachedData data) {
            return data.getData();
        }

        @Override
        public int getMaxSize() {
            return CachedData.MAX_SIZE;
        }
    };
}
