package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;

import dev.grizzlyboot.memcached.transcoder.Transcoder;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import net.spy.memcached.CachedData;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.ConnectionFactoryBuilder.Protocol;
import net.spy.memcached.internal.OperationFuture;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * Stores byte arrays of every size from 0 to 1,100 bytes, of 2^k-3 to 2^k+3 bytes up to 1 MiB, of
 * the sizes either side of where our codecs, our write batching, Grizzly and the sockets split,
 * grow or drop buffers, and of a few random sizes, through our client and through spymemcached
 * 2.12.3, and reads each back every way: our get, gets and getMulti over the text protocol's
 * {@code get} and over binary quiet gets, spymemcached's get, and memcached's own {@code mg} over a
 * socket of the test's, which is the ground truth of what is stored. A framing or buffering bug
 * shows up at a few sizes only, as a wrong byte, a value of the wrong length or a stall; every
 * size must come back byte for byte, whoever wrote it.
 *
 * <p>spymemcached is the oracle of what is stored and what is refused: given a transcoder that
 * stores the bytes as they are (flags 0, no compression) and whose own limit is above memcached's,
 * it sends every value and lets the server decide. memcached's limit is found by probing it over
 * the text protocol for the key lengths tested ({@code -I 1m} takes a little less than 1 MiB: the
 * item header and the key count too). Around that limit, and up to 2 MiB, our client must store
 * exactly what spymemcached stores, leave each server holding the same item afterwards, refuse
 * the rest with a {@link ValueTooLargeException} that says whether our {@code maxItemSize} check or
 * the server refused, and go on serving the same connection, with the keys stored before intact.
 *
 * <p>Large and small values are pipelined back to back on one connection
 * ({@code connectionsPerServer(1, 1)}), and getMulti mixes values at the limit with tiny and
 * missing ones, because a decoder that misjudges where one answer ends hands the next caller the
 * wrong bytes rather than failing. Everything is sent asynchronously and in bulk, on few clients
 * reused across sizes, so that the whole class takes a few seconds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ValueSizeSweepDifferentialTest {

    /** Room for every value the class stores: an eviction would read as a lost value. */
    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2, MemcachedOptions.defaults().withMemoryMegabytes(512));

    private static final int MIB = 1 << 20;
    /** The maxItemSize of the client that sends what memcached then refuses: twice the server's. */
    private static final int LENIENT_LIMIT = 2 * MIB;
    /** spymemcached's own limit: above anything tested, so that the server decides. */
    private static final int SPY_LIMIT = 4 * MIB;
    /** The sweep's keys ({@code sweep:o:%08d}) all have this length, so that a wire length maps to one value size. */
    private static final int SWEEP_KEY = 16;
    /** What memcached adds to the value on the wire of a binary GET answer: header and flags. */
    private static final int GET_OVERHEAD = 24 + 4;
    /** And of a binary SET request: header, flags and expiry, and the key. */
    private static final int SET_OVERHEAD = 24 + 8 + SWEEP_KEY;
    private static final byte[] BYTES = new byte[LENIENT_LIMIT + 16384];
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final String STORED = "STORED";
    private static final String REFUSED_HERE = "refused by our maxItemSize check";
    private static final String REFUSED_THERE = "refused by the server (VALUE_TOO_LARGE)";

    static {
        new Random(20240612).nextBytes(BYTES);
    }

    private MemcachedClient ours;
    private MemcachedClient binaryBulk;
    private MemcachedClient lenient;
    private net.spy.memcached.MemcachedClient spyA;
    private net.spy.memcached.MemcachedClient spyB;
    private RawText serverA;
    private RawText serverB;
    /** The largest value memcached stores per key length, probed. */
    private final Map<Integer, Integer> limits = new TreeMap<>();
    /** Value sizes where a buffer of ours, Grizzly's, the sockets' or memcached's ends, each ± 3. */
    private final TreeSet<Integer> boundaries = new TreeSet<>();
    private final TreeSet<Integer> sweep = new TreeSet<>();
    private final Map<String, Long> millis = new TreeMap<>();
    private String buffers;

    @BeforeAll
    void start() throws IOException {
        long begin = System.nanoTime();
        ours = client().build();
        binaryBulk = client().textBulkReads(false).build();
        lenient = client().maxItemSize(LENIENT_LIMIT).build();
        spyA = spymemcached(memcached.get(0));
        spyB = spymemcached(memcached.get(1));
        serverA = new RawText(memcached.get(0));
        serverB = new RawText(memcached.get(1));
        for (int keyLength : new int[] {1, SWEEP_KEY, 250}) {
            limits.put(keyLength, serverA.probeLimit(keyLength));
        }
        int receiveBuffer;
        int sendBuffer;
        try (Socket socket = new Socket()) {
            socket.connect(memcached.get(0).socketAddress(), 2_000);
            receiveBuffer = socket.getReceiveBufferSize();
            sendBuffer = socket.getSendBufferSize();
        }
        for (int d = -3; d <= 3; d++) {
            // A set request as long as memcached's 16 KiB read buffer, Grizzly's largest pooled
            // buffer (HeapMemoryManager, 64 KiB; the encoded batch comes from it), our largest
            // write batch (MemcachedConnection.MAX_WRITE_BYTES) or SO_SNDBUF (the caller's write).
            for (int wire : new int[] {16384, 65536, 256 * 1024, sendBuffer}) {
                boundaries.add(wire + d - SET_OVERHEAD);
            }
            // A binary or text answer as long as spymemcached's 16 KiB reads, Grizzly's largest
            // pooled buffer or its read size (SO_RCVBUF): where a decoder first sees a partial one.
            for (int wire : new int[] {16384, 65536, receiveBuffer}) {
                boundaries.add(wire + d - GET_OVERHEAD);
                boundaries.add(textValueForAnswer(wire + d));
            }
            // An item as large as memcached's largest slab chunk: a larger one is stored in chunks.
            boundaries.add(MIB / 2 + d - itemOverhead(SWEEP_KEY));
        }
        // Loopback's SO_SNDBUF may be over the item limit: no value reaches that boundary.
        boundaries.removeIf(size -> size > limits.get(SWEEP_KEY));
        buffers = "SO_RCVBUF " + receiveBuffer + ", SO_SNDBUF " + sendBuffer;
        IntStream.rangeClosed(0, 20).forEach(k -> IntStream.rangeClosed(-3, 3).forEach(d -> sweep.add(Math.max(0, (1 << k) + d))));
        new Random(11).ints(6, 1101, limits.get(SWEEP_KEY) + 1).forEach(sweep::add);
        IntStream.rangeClosed(-3, 3).forEach(d -> sweep.add(limits.get(SWEEP_KEY) + d));
        sweep.addAll(boundaries);
        IntStream.rangeClosed(0, 1100).forEach(sweep::add);
        millis.put("setup and probing", (System.nanoTime() - begin) / 1_000_000);
    }

    @AfterAll
    void stop() {
        ours.close();
        binaryBulk.close();
        lenient.close();
        spyA.shutdown(5, TimeUnit.SECONDS);
        spyB.shutdown(5, TimeUnit.SECONDS);
        serverA.close();
        serverB.close();
        LoggerFactory.getLogger(getClass()).info("{} sizes swept, limits by key length {}, {}, boundaries {}, ms {}",
                sweep.size(), limits, buffers, boundaries, millis);
    }

    /**
     * The probe itself is checked: below the limit memcached stores, above it refuses, whatever
     * the key, and the limit falls by one per byte of key.
     */
    @Test
    void memcachedsLimitIsAlmostOneMebibyteLessTheKey() {
        assertThat(limits.get(1) - limits.get(250)).isEqualTo(249);
        assertThat(limits.get(1)).isBetween(MIB - 4096, MIB - 1);
    }

    @Test
    void everySizeStoredByEitherClientReadsBackTheSameEverywhere() throws Exception {
        long begin = System.nanoTime();
        List<String> wrong = new ArrayList<>();
        Map<String, byte[]> expected = new LinkedHashMap<>();
        Map<Integer, CompletableFuture<Void>> ourSets = new TreeMap<>();
        Map<Integer, OperationFuture<Boolean>> spySets = new TreeMap<>();
        for (int size : sweep) {
            ourSets.put(size, ours.set(sweepKey('o', size), value(size, 'o'), Duration.ZERO, Transcoder.bytes()));
            spySets.put(size, spyA.set(sweepKey('s', size), 0, value(size, 's'), SPY_RAW));
        }
        int limit = limits.get(SWEEP_KEY);
        for (int size : sweep) {
            String our = ourOutcome(ourSets.get(size));
            String spy = spyOutcome(spySets.get(size));
            String allowed = size <= limit ? STORED : REFUSED_HERE;
            if (!our.equals(allowed) || !spy.equals(size <= limit ? STORED : REFUSED_THERE)) {
                wrong.add(size + " bytes: our set " + our + ", spymemcached's " + spy + " (memcached takes up to " + limit + ")");
            }
            expected.put(sweepKey('o', size), our.equals(STORED) ? value(size, 'o') : null);
            expected.put(sweepKey('s', size), spy.equals(STORED) ? value(size, 's') : null);
        }
        List<String> ourKeys = expected.keySet().stream().filter(key -> key.startsWith("sweep:o")).toList();
        compareServerItems(serverA, expected, wrong);
        // spymemcached reads what we stored; we read what either stored.
        Map<String, byte[]> oursStored = filter(expected, ourKeys);
        compareReads("our get", expected, key -> ours.get(key, Transcoder.bytes()), wrong);
        compareReads("our gets", oursStored, key -> ours.gets(key, Transcoder.bytes()).thenApply(read -> read == null ? null : read.value()),
                wrong);
        compareReads("spymemcached's get", oursStored, key -> spyA.asyncGet(key, SPY_RAW), wrong);
        compareBulkReads("our getMulti (text get)", expected, keys -> ours.getMulti(keys, Transcoder.bytes()), wrong);
        compareBulkReads("our getsMulti (text gets)", oursStored, keys -> ours.getsMulti(keys).thenApply(ValueSizeSweepDifferentialTest::asBytes),
                wrong);
        compareBulkReads("our getMulti (binary quiet gets)", expected, keys -> binaryBulk.getMulti(keys, Transcoder.bytes()), wrong);
        millis.put("sweep", (System.nanoTime() - begin) / 1_000_000);
        assertNone("the sweep of " + sweep.size() + " sizes", wrong);
    }

    /**
     * Each large value is written and read right before a small one on the same connection, so
     * that the small one's request or answer begins in the same buffer where the large one ends.
     */
    @Test
    void aLargeValueFollowedAtOnceByASmallOneComesBackRightOnOneConnection() throws Exception {
        long begin = System.nanoTime();
        List<Integer> large = new ArrayList<>(boundaries.tailSet(1101));
        large.add(limits.get(SWEEP_KEY));
        Map<String, byte[]> expected = new LinkedHashMap<>();
        List<CompletableFuture<Void>> sets = new ArrayList<>();
        for (int size : large) {
            int small = size % 23;
            expected.put(pipeKey('L', size), value(size, 'L'));
            expected.put(pipeKey('S', size), value(small, 'S'));
            expected.put(pipeKey('M', size), null);
            sets.add(ours.set(pipeKey('L', size), value(size, 'L'), Duration.ZERO, Transcoder.bytes()));
            sets.add(ours.set(pipeKey('S', size), value(small, 'S'), Duration.ZERO, Transcoder.bytes()));
        }
        CompletableFuture.allOf(sets.toArray(CompletableFuture[]::new)).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        List<String> wrong = new ArrayList<>();
        Map<String, List<CompletableFuture<byte[]>>> reads = new LinkedHashMap<>();
        for (int size : large) {
            List<String> pair = List.of(pipeKey('L', size), pipeKey('S', size), pipeKey('M', size));
            for (String key : pair) {
                List<CompletableFuture<byte[]>> ways = reads.computeIfAbsent(key, k -> new ArrayList<>());
                ways.add(ours.get(key, Transcoder.bytes()));
                ways.add(ours.getMulti(pair, Transcoder.bytes()).thenApply(result -> result.get(key).value()));
                ways.add(binaryBulk.getMulti(pair, Transcoder.bytes()).thenApply(result -> result.get(key).value()));
                ways.add(binaryBulk.get(key, Transcoder.bytes()));
            }
        }
        String[] names = {"our get", "our getMulti (text)", "our getMulti (binary)", "our get (second client)"};
        for (Map.Entry<String, List<CompletableFuture<byte[]>>> read : reads.entrySet()) {
            for (int way = 0; way < names.length; way++) {
                String problem = differs(expected.get(read.getKey()), outcome(read.getValue().get(way)));
                if (problem != null) {
                    wrong.add(names[way] + " of " + read.getKey() + ": " + problem);
                }
            }
        }
        compareServerItems(serverA, expected, wrong);
        millis.put("large then small", (System.nanoTime() - begin) / 1_000_000);
        assertNone("large values followed by small ones", wrong);
    }

    @Test
    void getMultiMixingValuesAtTheLimitWithTinyAndMissingOnesGivesEachKeyItsOwnBytes() throws Exception {
        long begin = System.nanoTime();
        Map<String, byte[]> expected = new LinkedHashMap<>();
        String shortKey = "G";
        String longKey = "g".repeat(250);
        expected.put(shortKey, value(limits.get(1), 'G'));
        expected.put(longKey, value(limits.get(250), 'g'));
        for (int i = 0; i < 30; i++) {
            expected.put("mixed:tiny:" + i, value(i % 4, 't'));
            expected.put("mixed:missing:" + i, null);
        }
        for (int size : boundaries.tailSet(1101)) {
            expected.put("mixed:boundary:" + size, value(size, 'b'));
        }
        List<CompletableFuture<Void>> sets = new ArrayList<>();
        expected.forEach((key, bytes) -> {
            if (bytes != null) {
                sets.add(ours.set(key, bytes, Duration.ZERO, Transcoder.bytes()));
            }
        });
        CompletableFuture.allOf(sets.toArray(CompletableFuture[]::new)).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        List<String> wrong = new ArrayList<>();
        compareServerItems(serverA, expected, wrong);
        Random random = new Random(3);
        for (int round = 0; round < 3; round++) {
            List<String> keys = new ArrayList<>(expected.keySet());
            Collections.shuffle(keys, random);
            Map<String, byte[]> shuffled = new LinkedHashMap<>();
            keys.forEach(key -> shuffled.put(key, expected.get(key)));
            String order = " (order " + round + ")";
            compareBulk("our getMulti (text get)" + order, shuffled, ours.getMulti(keys, Transcoder.bytes()), wrong);
            compareBulk("our getsMulti (text gets)" + order, shuffled, ours.getsMulti(keys).thenApply(ValueSizeSweepDifferentialTest::asBytes),
                    wrong);
            compareBulk("our getMulti (binary)" + order, shuffled, binaryBulk.getMulti(keys, Transcoder.bytes()), wrong);
        }
        Map<String, byte[]> spyRead = spyA.getBulk(expected.keySet(), SPY_RAW);
        expected.forEach((key, bytes) -> {
            String problem = differs(bytes, spyRead.get(key));
            if (problem != null) {
                wrong.add("spymemcached's getBulk of " + key + ": " + problem);
            }
        });
        millis.put("mixed getMulti", (System.nanoTime() - begin) / 1_000_000);
        assertNone("getMulti mixing sizes", wrong);
    }

    /**
     * Around memcached's limit for the key length, at 1 MiB and up to our lenient client's own
     * 2 MiB limit: our default client, our lenient one (maxItemSize 2 MiB, so that the server
     * refuses) and spymemcached store the same sizes, refuse the same sizes, and leave the same
     * items behind. Before every set the key holds a small value, so that what a refusal does to
     * it is compared too: memcached deletes it, and so must our client, whoever refused.
     */
    @ParameterizedTest(name = "{0}-byte key")
    @ValueSource(ints = {1, 250})
    void valuesAroundTheLimitAreStoredOrRefusedAsBySpymemcached(int keyLength) throws Exception {
        long begin = System.nanoTime();
        int limit = limits.get(keyLength);
        String key = (keyLength == 1 ? "L" : "l".repeat(keyLength));
        String unrelated = "limit:unrelated:" + keyLength;
        byte[] unrelatedValue = value(77, 'u');
        byte[] before = value(5, 'p');
        ours.set(unrelated, unrelatedValue, Duration.ZERO, Transcoder.bytes()).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        spyB.set(unrelated, 0, unrelatedValue, SPY_RAW).get();
        TreeSet<Integer> sizes = new TreeSet<>();
        for (int d = -3; d <= 3; d++) {
            sizes.add(limit + d);
            sizes.add(MIB + d);
            sizes.add(LENIENT_LIMIT - itemOverhead(keyLength) + d);
        }
        List<String> wrong = new ArrayList<>();
        for (int size : sizes) {
            byte[] bytes = value(size, 'v');
            spyB.set(key, 0, before, SPY_RAW).get();
            String spy = spyOutcome(spyB.set(key, 0, bytes, SPY_RAW));
            byte[] onB = serverB.item(key);
            if (!spy.equals(size <= limit ? STORED : REFUSED_THERE)) {
                wrong.add(size + " bytes: spymemcached's set " + spy + ", though the probe found memcached takes up to " + limit);
            }
            for (MemcachedClient client : List.of(ours, lenient)) {
                String name = client == ours ? "our set" : "our set with maxItemSize 2 MiB";
                int clientLimit = client == ours ? MIB : LENIENT_LIMIT;
                client.set(key, before, Duration.ZERO, Transcoder.bytes()).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                String our = ourOutcome(client.set(key, bytes, Duration.ZERO, Transcoder.bytes()));
                String allowed = size <= limit ? STORED
                        : size + itemOverhead(keyLength) > clientLimit ? REFUSED_HERE : REFUSED_THERE;
                if (!our.equals(allowed)) {
                    wrong.add(size + " bytes: " + name + " " + our + " where spymemcached's " + spy + " (expected: " + allowed + ")");
                }
                // memcached deletes the old item of a set it refuses; so does our client when its own check refuses one.
                byte[] left = onB;
                String item = differs(left, serverA.item(key));
                if (item != null) {
                    wrong.add(size + " bytes, after " + name + " " + our + ": the item on A (ours) against B (spymemcached's "
                            + spy + "): " + item);
                }
                // The same client goes on: a read of the key just refused or stored, and of one stored before.
                String next = differs(left, outcome(client.get(key, Transcoder.bytes())));
                String kept = differs(unrelatedValue, outcome(client.get(unrelated, Transcoder.bytes())));
                if (next != null || kept != null) {
                    wrong.add(size + " bytes, after " + name + " " + our + ": the next get " + (next == null ? "right" : next)
                            + ", the unrelated key " + (kept == null ? "intact" : kept));
                }
            }
            String spyKept = differs(unrelatedValue, outcome(spyB.asyncGet(unrelated, SPY_RAW)));
            if (spyKept != null) {
                wrong.add(size + " bytes: spymemcached's unrelated key after its set: " + spyKept);
            }
        }
        millis.merge("limits", (System.nanoTime() - begin) / 1_000_000, Long::sum);
        assertNone("sizes around the limit of " + limit + " for a " + keyLength + "-byte key", wrong);
    }

    // ---- reading and comparing ------------------------------------------------------------------

    private void compareServerItems(RawText server, Map<String, byte[]> expected, List<String> wrong) {
        List<String> keys = new ArrayList<>(expected.keySet());
        List<byte[]> items = server.items(keys);
        for (int i = 0; i < keys.size(); i++) {
            String problem = differs(expected.get(keys.get(i)), items.get(i));
            if (problem != null) {
                wrong.add("memcached's own mg of " + keys.get(i) + ": " + problem);
            }
        }
    }

    /** One read per key, all sent before any is waited for. */
    private static void compareReads(String way, Map<String, byte[]> expected, Function<String, Future<byte[]>> read,
            List<String> wrong) {
        Map<String, Future<byte[]>> reads = new LinkedHashMap<>();
        expected.keySet().forEach(key -> reads.put(key, read.apply(key)));
        reads.forEach((key, future) -> {
            String problem = differs(expected.get(key), outcome(future));
            if (problem != null) {
                wrong.add(way + " of " + key + ": " + problem);
            }
        });
    }

    /** Bulk reads of up to 64 keys or 4 MiB each, all sent before any is waited for. */
    private static void compareBulkReads(String way, Map<String, byte[]> expected,
            Function<List<String>, CompletableFuture<? extends BulkResult<byte[]>>> read, List<String> wrong) {
        List<Map<String, byte[]>> slices = new ArrayList<>();
        Map<String, byte[]> slice = new LinkedHashMap<>();
        long bytes = 0;
        for (Map.Entry<String, byte[]> entry : expected.entrySet()) {
            slice.put(entry.getKey(), entry.getValue());
            bytes += entry.getValue() == null ? 0 : entry.getValue().length;
            if (slice.size() == 64 || bytes > 4 * MIB) {
                slices.add(slice);
                slice = new LinkedHashMap<>();
                bytes = 0;
            }
        }
        if (!slice.isEmpty()) {
            slices.add(slice);
        }
        List<CompletableFuture<? extends BulkResult<byte[]>>> reads = new ArrayList<>();
        slices.forEach(keys -> reads.add(read.apply(new ArrayList<>(keys.keySet()))));
        for (int i = 0; i < slices.size(); i++) {
            compareBulk(way, slices.get(i), reads.get(i), wrong);
        }
    }

    private static void compareBulk(String way, Map<String, byte[]> expected, CompletableFuture<? extends BulkResult<byte[]>> read,
            List<String> wrong) {
        BulkResult<byte[]> result;
        try {
            result = read.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            wrong.add(way + " of " + expected.size() + " keys from " + expected.keySet().iterator().next() + " failed: " + describe(e));
            return;
        }
        expected.forEach((key, bytes) -> {
            KeyResult<byte[]> one = result.get(key);
            String problem = one == null ? "no result"
                    : one.outcome() == Outcome.ERROR ? "error " + describe(one.error())
                    : one.outcome() == Outcome.NOT_FOUND ? differs(bytes, null)
                    : one.outcome() == Outcome.FOUND ? differs(bytes, one.value()) : "outcome " + one.outcome();
            if (problem != null) {
                wrong.add(way + " of " + key + ": " + problem);
            }
        });
    }

    /** What differs between the bytes expected (null: no item) and those read, or null. */
    private static String differs(byte[] expected, Object actual) {
        if (actual instanceof Failure failure) {
            return "failed: " + failure.description();
        }
        byte[] read = (byte[]) actual;
        if (expected == null || read == null) {
            return expected == read ? null : expected == null ? read.length + " bytes where nothing is stored" : "not found";
        }
        int at = Arrays.mismatch(expected, read);
        return at < 0 ? null : read.length + " bytes, expected " + expected.length + ", first difference at " + at;
    }

    /** A read that failed. */
    record Failure(String description) {
    }

    private static Object outcome(Future<byte[]> read) {
        try {
            return read.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            return new Failure(describe(e));
        }
    }

    /**
     * How our set ended: stored, refused with a {@link ValueTooLargeException} by our own check
     * (which names maxItemSize) or by the server (which answers VALUE_TOO_LARGE), or otherwise.
     */
    private static String ourOutcome(CompletableFuture<Void> set) {
        try {
            set.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            return STORED;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ValueTooLargeException refused && refused.status() == ServerStatus.VALUE_TOO_LARGE) {
                if (refused.getMessage().contains("(maxItemSize, memcached's -I)")) {
                    return REFUSED_HERE;
                }
                if (refused.getMessage().contains("failed with VALUE_TOO_LARGE")) {
                    return REFUSED_THERE;
                }
            }
            return "failed with " + describe(e);
        } catch (Exception e) {
            return "failed with " + describe(e);
        }
    }

    /** The same for spymemcached, whose set answers false with the server's status. */
    private static String spyOutcome(OperationFuture<Boolean> set) {
        try {
            if (set.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                return STORED;
            }
            OperationStatus status = set.getStatus();
            return status.getStatusCode() == StatusCode.ERR_2BIG ? REFUSED_THERE : "not stored: " + status;
        } catch (Exception e) {
            return "failed with " + describe(e);
        }
    }

    private static String describe(Throwable e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    private static void assertNone(String what, List<String> wrong) {
        for (int i = 0; i < 2; i++) {
            String evictions = memcached.get(i).stats().get("evictions");
            if (!"0".equals(evictions)) {
                wrong.add(0, "memcached " + (char) ('A' + i) + " evicted " + evictions + " items, so a missing value proves nothing");
            }
        }
        assertThat(wrong.size() > 40 ? wrong.subList(0, 40) : wrong).as(what + " (" + wrong.size() + " problems, at most 40 shown)")
                .isEmpty();
    }

    private static Map<String, byte[]> filter(Map<String, byte[]> all, List<String> keys) {
        Map<String, byte[]> some = new LinkedHashMap<>();
        keys.forEach(key -> some.put(key, all.get(key)));
        return some;
    }

    // ---- values, keys and clients -------------------------------------------------------------

    /** Different bytes for every size and writer, so that another key's value never passes. */
    private static byte[] value(int size, char writer) {
        int from = (size * 31 + writer * 977) % 16381;
        return Arrays.copyOfRange(BYTES, from, from + size);
    }

    private static String sweepKey(char writer, int size) {
        return String.format("sweep:%c:%08d", writer, size);
    }

    private static String pipeKey(char kind, int size) {
        return String.format("pipe:%c:%08d", kind, size);
    }

    /** The value size whose text {@code get} answer (VALUE line, data, CRLF, END) is {@code answer} bytes long. */
    private static int textValueForAnswer(int answer) {
        int size = answer;
        while (size > 0 && ("VALUE " + sweepKey('o', size) + " 0 " + size + "\r\n").length() + size + 2 + 5 > answer) {
            size--;
        }
        return size;
    }

    /** What memcached adds to a value of a key this long to make an item, as the probe measured it. */
    private int itemOverhead(int keyLength) {
        return MIB - limits.get(keyLength);
    }

    /** The default transcoder would read flags 0 as text; getsMulti takes no other, so the client's reads bytes. */
    private static MemcachedClientBuilder client() {
        return MemcachedClient.builder().servers(memcached.get(0).address()).connectionsPerServer(1, 1).operationTimeout(TIMEOUT)
                .transcoder(RAW_OBJECTS);
    }

    private static final Transcoder<Object> RAW_OBJECTS = new Transcoder<>() {
        @Override
        public dev.grizzlyboot.memcached.transcoder.CachedData encode(Object value) {
            return Transcoder.bytes().encode((byte[]) value);
        }

        @Override
        public Object decode(dev.grizzlyboot.memcached.transcoder.CachedData data) {
            return data.bytes();
        }
    };

    private static BulkResult<byte[]> asBytes(BulkResult<Object> read) {
        @SuppressWarnings("unchecked")
        BulkResult<byte[]> bytes = (BulkResult<byte[]>) (BulkResult<?>) read;
        return bytes;
    }

    private static net.spy.memcached.MemcachedClient spymemcached(MemcachedProcess server) throws IOException {
        return new net.spy.memcached.MemcachedClient(new ConnectionFactoryBuilder().setProtocol(Protocol.BINARY)
                .setOpTimeout(TIMEOUT.toMillis()).build(), List.of(server.socketAddress()));
    }

    /** spymemcached storing and reading the bytes as they are, flags 0, up to {@link #SPY_LIMIT}. */
    private static final net.spy.memcached.transcoders.Transcoder<byte[]> SPY_RAW = new net.spy.memcached.transcoders.Transcoder<>() {
        @Override
        public boolean asyncDecode(CachedData data) {
            return false;
        }

        @Override
        public CachedData encode(byte[] value) {
            return new CachedData(0, value, SPY_LIMIT);
        }

        @Override
        public byte[] decode(CachedData data) {
            return data.getData();
        }

        @Override
        public int getMaxSize() {
            return SPY_LIMIT;
        }
    };

    /**
     * memcached's text protocol over a socket of the test's own: {@code mg <key> v f} for what is
     * stored (bytes, and flags 0: nothing compressed or tagged), {@code set} for probing the limit.
     * Not thread-safe; the test thread drives it.
     */
    private static final class RawText implements AutoCloseable {

        private final Socket socket = new Socket();
        private final DataInputStream in;
        private final OutputStream out;

        RawText(MemcachedProcess server) throws IOException {
            socket.connect(server.socketAddress(), 2_000);
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
            out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
        }

        /**
         * The largest value memcached stores under a key of {@code keyLength} bytes: a binary
         * search between a size it must take and 1 MiB, which it must refuse.
         */
        int probeLimit(int keyLength) {
            String key = "p".repeat(keyLength);
            int stored = MIB - 4096;
            int refused = MIB;
            assertThat(store(key, stored)).as("memcached stores %d bytes under a %d-byte key", stored, keyLength).isTrue();
            assertThat(store(key, refused)).as("memcached refuses %d bytes", refused).isFalse();
            while (refused - stored > 1) {
                int middle = (stored + refused) >>> 1;
                if (store(key, middle)) {
                    stored = middle;
                } else {
                    refused = middle;
                }
            }
            command("delete " + key);
            return stored;
        }

        private boolean store(String key, int size) {
            try {
                out.write(("set " + key + " 0 0 " + size + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(BYTES, 0, size);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String reply = line();
                if (!reply.equals("STORED") && !reply.equals("SERVER_ERROR object too large for cache")) {
                    throw new IllegalStateException("set of " + size + " bytes answered " + reply);
                }
                return reply.equals("STORED");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private String command(String command) {
            try {
                out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                return line();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        byte[] item(String key) {
            return items(List.of(key)).get(0);
        }

        /** Each key's stored bytes (null: none), asked 100 at a time, so that the commands never wait on unread answers. */
        List<byte[]> items(List<String> keys) {
            List<byte[]> items = new ArrayList<>();
            try {
                for (int from = 0; from < keys.size(); from += 100) {
                    List<String> slice = keys.subList(from, Math.min(keys.size(), from + 100));
                    for (String key : slice) {
                        out.write(("mg " + key + " v f\r\n").getBytes(StandardCharsets.US_ASCII));
                    }
                    out.flush();
                    for (String key : slice) {
                        items.add(item(key, line()));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return items;
        }

        private byte[] item(String key, String header) throws IOException {
            if (header.equals("EN")) {
                return null;
            }
            String[] fields = header.split(" ");
            if (fields.length != 3 || !fields[0].equals("VA") || !fields[2].equals("f0")) {
                throw new IllegalStateException("mg " + key + " v f answered '" + header + "'");
            }
            byte[] data = new byte[Integer.parseInt(fields[1])];
            in.readFully(data);
            if (!line().isEmpty()) {
                throw new IllegalStateException("the data of " + key + " is not followed by CRLF");
            }
            return data;
        }

        private String line() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("memcached closed the connection");
                }
                line.write(b);
            }
            byte[] bytes = line.toByteArray();
            return new String(bytes, 0, Math.max(0, bytes.length - 1), StandardCharsets.US_ASCII);
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
