package dev.grizzlyboot.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.cache.Cache;
import org.springframework.cache.concurrent.ConcurrentMapCache;
import org.springframework.cache.interceptor.SimpleKey;
import org.springframework.cache.support.AbstractValueAdaptingCache;

/**
 * Differential test of the {@link Cache} contract: seeded sequences of operations run against
 * Spring's own {@link ConcurrentMapCache} (the oracle) and against {@link MemcachedCache}s on a
 * real memcached, and every answer is compared: returned values and their classes, whether a
 * {@link Cache.ValueWrapper} came back and what it holds, booleans, the exception thrown (class,
 * and its cause's class), what the futures of {@code retrieve} complete with, and how often a
 * loader was called. Every so often, and at the end, every key of the pool is read from both.
 *
 * <p>Differences that docs/cache.md declares deliberate are modelled in {@link DocumentedOracle}
 * (each with the line of the documentation it follows); the shapes Spring's own {@code retrieve(key)}
 * contract leaves to the implementation are normalised in {@link #retrieveOutcome}. Anything else
 * that differs fails the test with the seed, the step and the earlier steps on that key.
 *
 * <p>Every sequence uses two caches of one manager (entries and clears must stay apart) and a
 * configuration drawn from the seed: key prefix (none, short, or so long that every key is hashed),
 * cache names (with {@code :}, {@code %}, spaces) and generation refresh interval (zero re-reads
 * the generation on every operation). The caches are built with {@code propagateErrors(true)}: a
 * memcached failure would otherwise be logged and turned into a miss, and show up steps later as a
 * stale read instead of at the step that failed. Entries never expire: the TTL is the default 0
 * (docs/cache.md: "`0` = never expires"), so the oracle needs no expiry model.
 */
class CacheContractDifferentialTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private static final long[] SEEDS = {1L, 7L, 42L, 0x5EEDL, -3L};
    private static final int STEPS = 300;
    private static final int HOT_KEYS = 8;
    /** A full comparison of every key after this many steps (and at the end). */
    private static final int FULL_COMPARISON_EVERY = 150;
    private static final long FUTURE_TIMEOUT_SECONDS = 10;
    /** Digits of a generation: generations start at the time in thousandths of a millisecond (docs/cache.md, "Clear"). */
    private static final int GENERATION_DIGITS = Long.toString(System.currentTimeMillis() * 1000).length();

    /** Answers every sequence reaches. */
    private static final List<String> EVERY_SEQUENCE_REACHES = List.of(
            "put -> done", "get -> entry", "get -> no entry",
            "get(key, Callable) -> returned, loader called", "get(key, Callable) -> returned, loader not called",
            "putIfAbsent -> entry", "putIfAbsent -> no entry", "evictIfPresent -> true", "evictIfPresent -> false",
            "retrieve(key) -> entry", "retrieve(key) -> no entry", "retrieve(key, loader) -> completed, loader called",
            "clear -> done");
    /** Answers the sequences of each null setting reach together (checked when all of them ran). */
    private static final List<String> ALL_SEQUENCES_REACH = List.of(
            "put -> done", "get -> entry", "get -> no entry",
            "get(key, Class) -> returned", "get(key, Class) -> returned null",
            "get(key, Class) -> threw IllegalStateException",
            "get(key, Callable) -> returned, loader called", "get(key, Callable) -> returned, loader not called",
            "get(key, Callable) -> returned null, loader called",
            "get(key, Callable) -> threw ValueRetrievalException, loader called",
            "putIfAbsent -> entry", "putIfAbsent -> no entry",
            "evict -> done", "evictIfPresent -> true", "evictIfPresent -> false",
            "clear -> done", "invalidate -> false",
            "retrieve(key) -> entry", "retrieve(key) -> no entry",
            "retrieve(key, loader) -> completed, loader called",
            "retrieve(key, loader) -> completed, loader not called",
            "retrieve(key, loader) -> completed null, loader called",
            "retrieve(key, loader) -> failed, loader called");
    private static final List<String> ALL_SEQUENCES_WITH_NULLS_REACH = List.of(
            "get -> entry of null", "putIfAbsent -> entry of null", "retrieve(key) -> entry of null",
            "get(key, Callable) -> returned null, loader not called");
    private static final List<String> ALL_SEQUENCES_WITHOUT_NULLS_REACH = List.of(
            "put -> threw IllegalArgumentException", "putIfAbsent -> threw IllegalArgumentException");
    private static final Map<Boolean, Set<String>> COVERED = new ConcurrentHashMap<>();
    private static final AtomicInteger SEQUENCES_RUN = new AtomicInteger();

    @AfterAll
    static void theSequencesTogetherReachedEveryKindOfAnswer() {
        if (SEQUENCES_RUN.get() < 2 * SEEDS.length) {
            return; // only some sequences were selected to run
        }
        assertThat(COVERED.get(true)).as("answers reached with null values allowed")
                .containsAll(ALL_SEQUENCES_REACH).containsAll(ALL_SEQUENCES_WITH_NULLS_REACH);
        assertThat(COVERED.get(false)).as("answers reached with null values not allowed")
                .containsAll(ALL_SEQUENCES_REACH).containsAll(ALL_SEQUENCES_WITHOUT_NULLS_REACH);
    }

    static Stream<Arguments> sequences() {
        return Arrays.stream(SEEDS).boxed()
                .flatMap(seed -> Stream.of(Arguments.of(seed, true), Arguments.of(seed, false)));
    }

    @ParameterizedTest(name = "seed {0}, allowNullValues {1}")
    @MethodSource("sequences")
    void memcachedCacheAnswersAsSpringsConcurrentMapCacheDoes(long seed, boolean allowNullValues) {
        // The same seed draws the same setup and operations for both null settings.
        Random random = new Random(seed);
        Setup setup = Setup.draw(random);
        List<Sample> keys = keys(random, setup);
        // Half of the operations go to a few hot keys, so that entries are often found, replaced and evicted.
        List<Sample> hot = new ArrayList<>(keys);
        Collections.shuffle(hot, random);
        hot = hot.subList(0, HOT_KEYS);
        List<Op> ops = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            ops.add(nextOp(random, random.nextBoolean() ? hot : keys, step));
        }
        String sequence = "seed " + seed + ", allowNullValues " + allowNullValues + ", " + setup;

        MemcachedProcess server = memcached.first();
        server.flushAll();
        try (MemcachedClient client = TestClients.connect(server.address())) {
            MemcachedCacheManager manager = MemcachedCacheManager.builder(client)
                    .cacheDefaults(MemcachedCacheConfiguration.defaultCacheConfig()
                            .cacheNullValues(allowNullValues).keyPrefix(setup.prefix()))
                    .propagateErrors(true)
                    .generationRefreshInterval(setup.refresh())
                    .build();
            Cache[] subjects = new Cache[setup.names().size()];
            Cache[] oracles = new Cache[setup.names().size()];
            for (int i = 0; i < subjects.length; i++) {
                subjects[i] = manager.getCache(setup.names().get(i));
                oracles[i] = new DocumentedOracle(setup.names().get(i), allowNullValues);
                assertThat(subjects[i]).as(sequence).isInstanceOf(MemcachedCache.class);
            }
            // The keys at the 250-byte edge were sized from the documented key shape: a change to it must show here.
            String mapped = ((MemcachedCache) subjects[0]).memcachedKey("k");
            if (!mapped.startsWith("#")) {
                assertThat(mapped.getBytes(StandardCharsets.UTF_8).length - 1).as("namespace of " + mapped)
                        .isEqualTo(setup.namespaceBytes());
            }

            List<Executed> history = new ArrayList<>();
            Set<String> covered = new LinkedHashSet<>();
            for (int step = 0; step < ops.size(); step++) {
                Op op = ops.get(step);
                Outcome expected = op.run(oracles[op.cache()]);
                Outcome actual = op.run(subjects[op.cache()]);
                if (!actual.agrees(expected)) {
                    fail(divergence(sequence, "step " + step + " of " + ops.size(), op, expected, actual, history));
                }
                history.add(new Executed(step, op, expected));
                covered.add(op.kind() + " -> " + expected.category());
                if ((step + 1) % FULL_COMPARISON_EVERY == 0 && step + 1 < ops.size()) {
                    compareEveryKey(sequence, "after step " + step, keys, oracles, subjects, history);
                }
            }
            compareEveryKey(sequence, "at the end", keys, oracles, subjects, history);

            // The sequence must have reached the answers worth comparing, or agreeing means little.
            assertThat(covered).as("%s: answers reached by the sequence", sequence).containsAll(EVERY_SEQUENCE_REACHES);
            COVERED.computeIfAbsent(allowNullValues, mode -> ConcurrentHashMap.newKeySet()).addAll(covered);
            SEQUENCES_RUN.incrementAndGet();
        }
    }

    /** Reads every key of the pool from every cache of both implementations. */
    private static void compareEveryKey(String sequence, String when, List<Sample> keys, Cache[] oracles, Cache[] subjects,
            List<Executed> history) {
        for (int cache = 0; cache < subjects.length; cache++) {
            for (Sample key : keys) {
                Op read = get(cache, key);
                Outcome expected = read.run(oracles[cache]);
                Outcome actual = read.run(subjects[cache]);
                if (!actual.agrees(expected)) {
                    fail(divergence(sequence, "full comparison " + when, read, expected, actual, history));
                }
            }
        }
    }

    private static String divergence(String sequence, String where, Op op, Outcome expected, Outcome actual,
            List<Executed> history) {
        StringBuilder message = new StringBuilder()
                .append(sequence).append(": ").append(where).append(" diverged\n")
                .append("  operation:                  ").append(op.text()).append('\n')
                .append("  ConcurrentMapCache (oracle): ").append(expected).append('\n')
                .append("  MemcachedCache:             ").append(actual).append('\n')
                .append("  earlier steps on this cache that touched this key (toString) or cleared it:\n");
        history.stream()
                .filter(done -> done.op().cache() == op.cache() && done.op().touches(op.key()))
                .forEach(done -> message.append("    step ").append(done.step()).append(": ").append(done.op().text())
                        .append(" -> ").append(done.outcome()).append('\n'));
        return message.toString();
    }

    // ---------------------------------------------------------------------------------------------
    // The oracle
    // ---------------------------------------------------------------------------------------------

    /**
     * Spring's {@link ConcurrentMapCache}, with the behaviour docs/cache.md declares deliberate for
     * the memcached cache put in its place. Everything else is passed on unchanged.
     */
    static final class DocumentedOracle implements Cache {

        private final ConcurrentMapCache map;

        DocumentedOracle(String name, boolean allowNullValues) {
            this.map = new ConcurrentMapCache(name, allowNullValues);
        }

        boolean isAllowNullValues() {
            return map.isAllowNullValues();
        }

        /**
         * docs/cache.md, "Keys": "An entry's memcached key is `prefix:cacheName:generation:key`, where
         * `key` is the cache key's `toString()` ... So use keys whose `toString()` is stable and tells
         * them apart". Keys with equal {@code toString()} (42, 42L and "42"; SimpleKey("a", 1) and
         * SimpleKey("a", "1")) are therefore one entry, where ConcurrentMapCache (by equals) keeps them apart.
         */
        private static Object key(Object key) {
            return String.valueOf(key);
        }

        @Override
        public String getName() {
            return map.getName();
        }

        @Override
        public Object getNativeCache() {
            return map;
        }

        @Override
        public ValueWrapper get(Object key) {
            return map.get(key(key));
        }

        @Override
        public <T> T get(Object key, Class<T> type) {
            return map.get(key(key), type);
        }

        /**
         * docs/cache.md, `cacheNullValues`: "`false`: `put(key, null)` throws `IllegalArgumentException`
         * ..., and a loader (`sync = true`, `CompletableFuture`) returning `null` is simply not cached."
         * ConcurrentMapCache instead fails with ValueRetrievalException (around the IllegalArgumentException
         * of storing the null); the documented answer is the null, with nothing stored.
         */
        @Override
        public <T> T get(Object key, Callable<T> valueLoader) {
            AtomicBoolean loadedNull = new AtomicBoolean();
            Callable<T> recording = () -> {
                T value = valueLoader.call();
                loadedNull.set(value == null);
                return value;
            };
            try {
                return map.get(key(key), recording);
            } catch (ValueRetrievalException e) {
                if (!map.isAllowNullValues() && loadedNull.get() && e.getCause() instanceof IllegalArgumentException) {
                    return null;
                }
                throw e;
            }
        }

        /** As {@link #get(Object, Callable)}: with null values off, a loaded null completes the future and is not stored. */
        @Override
        public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
            AtomicBoolean loadedNull = new AtomicBoolean();
            Supplier<CompletableFuture<T>> recording = () -> valueLoader.get()
                    .whenComplete((value, error) -> loadedNull.set(error == null && value == null));
            return map.retrieve(key(key), recording).handle((value, error) -> {
                if (error == null) {
                    return CompletableFuture.completedFuture(value);
                }
                Throwable cause = unwrap(error);
                if (!map.isAllowNullValues() && loadedNull.get() && cause instanceof IllegalArgumentException) {
                    return CompletableFuture.<T>completedFuture(null);
                }
                return CompletableFuture.<T>failedFuture(cause);
            }).thenCompose(Function.identity());
        }

        @Override
        public CompletableFuture<?> retrieve(Object key) {
            return map.retrieve(key(key));
        }

        @Override
        public void put(Object key, Object value) {
            map.put(key(key), value);
        }

        @Override
        public ValueWrapper putIfAbsent(Object key, Object value) {
            return map.putIfAbsent(key(key), value);
        }

        @Override
        public void evict(Object key) {
            map.evict(key(key));
        }

        @Override
        public boolean evictIfPresent(Object key) {
            return map.evictIfPresent(key(key));
        }

        /**
         * docs/cache.md, "Clear": "`clear()` increments [the generation]: from then on, reads and writes
         * use the new keys" and "The instance that clears sees the clear **at once**." With one instance,
         * that is ConcurrentMapCache's clear (other instances' delay is not modelled: there are none).
         */
        @Override
        public void clear() {
            map.clear();
        }

        /**
         * docs/cache.md, "Operations": "`clear()`, `invalidate()` | `incr` of the cache's generation |
         * immediate for this instance; `invalidate()` answers `false` (memcached cannot tell whether
         * entries existed)". ConcurrentMapCache answers whether it held entries.
         */
        @Override
        public boolean invalidate() {
            map.clear();
            return false;
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Operations and their outcomes
    // ---------------------------------------------------------------------------------------------

    /** A key or value and how to write it in Java, for messages that reproduce the step. */
    record Sample(Object value, String text) {

        static Sample of(Object value) {
            return new Sample(value, literal(value));
        }
    }

    /** One operation on cache number {@code cache}; {@code key} is null for clear and invalidate. */
    record Op(String kind, int cache, Sample key, String text, Function<Cache, Outcome> action) {

        Outcome run(Cache target) {
            try {
                return action.apply(target);
            } catch (RuntimeException e) {
                return Outcome.threw(e);
            }
        }

        /** Whether this step may have changed what {@code other} reads: same key text, or a clear. */
        boolean touches(Sample other) {
            return key == null || other == null || String.valueOf(key.value()).equals(String.valueOf(other.value()));
        }
    }

    record Executed(int step, Op op, Outcome outcome) {
    }

    /**
     * What a call answered: {@code answer} says what kind of answer it was, {@code value} is the
     * value (compared with {@link Objects#deepEquals} and by class) or, for an exception, its cause;
     * {@code loader} says whether a loader was called, and {@code loaderCalls} how often.
     */
    record Outcome(String answer, Object value, boolean hasValue, String loader, int loaderCalls) {

        static Outcome done() {
            return new Outcome("done", null, false, "", 0);
        }

        static Outcome returned(Object value) {
            return new Outcome(value == null ? "returned null" : "returned", value, true, "", 0);
        }

        static Outcome completed(Object value) {
            return new Outcome(value == null ? "completed null" : "completed", value, true, "", 0);
        }

        static Outcome wrapper(Cache.ValueWrapper wrapper) {
            if (wrapper == null) {
                return new Outcome("no entry", null, false, "", 0);
            }
            return new Outcome(wrapper.get() == null ? "entry of null" : "entry", wrapper.get(), true, "", 0);
        }

        static Outcome bool(boolean answer) {
            return new Outcome(String.valueOf(answer), null, false, "", 0);
        }

        static Outcome threw(Throwable error) {
            Throwable cause = error.getCause();
            return new Outcome("threw " + error.getClass().getSimpleName(), cause == null ? null : "caused by " + error(cause),
                    false, "", 0);
        }

        static Outcome failed(Throwable cause) {
            return new Outcome("failed", "with " + error(cause), false, "", 0);
        }

        /** An exception's class, and its message when it is the test's own loader failure (which names the step). */
        static String error(Throwable error) {
            return error.getClass().getName()
                    + (error instanceof LoaderFailure || error instanceof CheckedLoaderFailure ? ": " + error.getMessage() : "");
        }

        Outcome withLoaderCalls(int calls) {
            return new Outcome(answer, value, hasValue, calls == 0 ? ", loader not called" : ", loader called", calls);
        }

        /** The kind of answer, for the check that the sequences reached every kind. */
        String category() {
            return answer + loader;
        }

        boolean agrees(Outcome other) {
            return answer.equals(other.answer) && hasValue == other.hasValue && loaderCalls == other.loaderCalls
                    && Objects.deepEquals(value, other.value)
                    && Objects.equals(value == null ? null : value.getClass(), other.value == null ? null : other.value.getClass());
        }

        @Override
        public String toString() {
            String shown = answer;
            if (value != null) {
                shown += hasValue ? " " + literal(value) + " (" + value.getClass().getName() + ")" : " " + value;
            }
            return shown + loader + (loaderCalls > 1 ? " " + loaderCalls + " times" : "");
        }
    }

    /** The loader's own unchecked failure. */
    static final class LoaderFailure extends RuntimeException {

        LoaderFailure(String message) {
            super(message);
        }
    }

    /** The loader's own checked failure. */
    static final class CheckedLoaderFailure extends Exception {

        CheckedLoaderFailure(String message) {
            super(message);
        }
    }

    private static Op nextOp(Random random, List<Sample> keys, int step) {
        int cache = random.nextInt(10) < 8 ? 0 : 1;
        Sample key = keys.get(random.nextInt(keys.size()));
        String on = "cache" + cache;
        int pick = random.nextInt(100);
        if (pick < 17) {
            Sample value = value(random);
            return new Op("put", cache, key, on + ".put(" + key.text() + ", " + value.text() + ")", c -> {
                c.put(key.value(), value.value());
                return Outcome.done();
            });
        }
        if (pick < 29) {
            return get(cache, key);
        }
        if (pick < 37) {
            // Object.class (always the right type) two times in five, so that both answers come up often.
            Class<?> type = random.nextInt(5) < 2 ? Object.class : TYPES.get(random.nextInt(TYPES.size()));
            return new Op("get(key, Class)", cache, key, on + ".get(" + key.text() + ", " + type.getSimpleName() + ".class)",
                    c -> Outcome.returned(c.get(key.value(), type)));
        }
        if (pick < 51) {
            return getWithLoader(random, cache, key, step);
        }
        if (pick < 63) {
            Sample value = value(random);
            return new Op("putIfAbsent", cache, key, on + ".putIfAbsent(" + key.text() + ", " + value.text() + ")",
                    c -> Outcome.wrapper(c.putIfAbsent(key.value(), value.value())));
        }
        if (pick < 69) {
            return new Op("evict", cache, key, on + ".evict(" + key.text() + ")", c -> {
                c.evict(key.value());
                return Outcome.done();
            });
        }
        if (pick < 77) {
            return new Op("evictIfPresent", cache, key, on + ".evictIfPresent(" + key.text() + ")",
                    c -> Outcome.bool(c.evictIfPresent(key.value())));
        }
        if (pick < 79) {
            return new Op("clear", cache, null, on + ".clear()", c -> {
                c.clear();
                return Outcome.done();
            });
        }
        if (pick < 80) {
            return new Op("invalidate", cache, null, on + ".invalidate()", c -> Outcome.bool(c.invalidate()));
        }
        if (pick < 89) {
            return new Op("retrieve(key)", cache, key, on + ".retrieve(" + key.text() + ")",
                    c -> retrieveOutcome(c, c.retrieve(key.value())));
        }
        return retrieveWithLoader(random, cache, key, step);
    }

    private static Op get(int cache, Sample key) {
        return new Op("get", cache, key, "cache" + cache + ".get(" + key.text() + ")", c -> Outcome.wrapper(c.get(key.value())));
    }

    /**
     * get(key, Callable) with a loader that returns a value, returns null, or throws an unchecked or a
     * checked exception. (Loaders throwing an {@link Error} are left out: ConcurrentMapCache wraps any
     * Throwable in ValueRetrievalException, MemcachedCache, like Spring's CaffeineCache, only
     * exceptions.)
     */
    private static Op getWithLoader(Random random, int cache, Sample key, int step) {
        int kind = random.nextInt(100);
        Sample value = nonNullValue(random);
        String failure = "loader of step " + step;
        String loaderText = kind < 50 ? "() -> " + value.text()
                : kind < 70 ? "() -> null"
                : kind < 85 ? "() -> { throw new LoaderFailure(\"" + failure + "\"); }"
                : "() -> { throw new CheckedLoaderFailure(\"" + failure + "\"); }";
        return new Op("get(key, Callable)", cache, key, "cache" + cache + ".get(" + key.text() + ", " + loaderText + ")", c -> {
            AtomicInteger calls = new AtomicInteger();
            Callable<Object> loader = () -> {
                calls.incrementAndGet();
                if (kind < 50) {
                    return value.value();
                } else if (kind < 70) {
                    return null;
                } else if (kind < 85) {
                    throw new LoaderFailure(failure);
                }
                throw new CheckedLoaderFailure(failure);
            };
            Outcome outcome;
            try {
                outcome = Outcome.returned(c.get(key.value(), loader));
            } catch (RuntimeException e) {
                outcome = Outcome.threw(e);
            }
            return outcome.withLoaderCalls(calls.get());
        });
    }

    private static Op retrieveWithLoader(Random random, int cache, Sample key, int step) {
        int kind = random.nextInt(100);
        Sample value = nonNullValue(random);
        String failure = "loader of step " + step;
        String loaderText = kind < 35 ? "() -> completedFuture(" + value.text() + ")"
                : kind < 50 ? "() -> completedFuture(null)"
                : kind < 65 ? "() -> supplyAsync(() -> " + value.text() + ")"
                : kind < 80 ? "() -> failedFuture(new LoaderFailure(\"" + failure + "\"))"
                : kind < 90 ? "() -> { throw new LoaderFailure(\"" + failure + "\"); }"
                : "() -> supplyAsync(() -> { throw new LoaderFailure(\"" + failure + "\"); })";
        return new Op("retrieve(key, loader)", cache, key,
                "cache" + cache + ".retrieve(" + key.text() + ", " + loaderText + ")", c -> {
                    AtomicInteger calls = new AtomicInteger();
                    Supplier<CompletableFuture<Object>> loader = () -> {
                        calls.incrementAndGet();
                        if (kind < 35) {
                            return CompletableFuture.completedFuture(value.value());
                        } else if (kind < 50) {
                            return CompletableFuture.completedFuture(null);
                        } else if (kind < 65) {
                            return CompletableFuture.supplyAsync(value::value);
                        } else if (kind < 80) {
                            return CompletableFuture.failedFuture(new LoaderFailure(failure));
                        } else if (kind < 90) {
                            throw new LoaderFailure(failure);
                        }
                        return CompletableFuture.supplyAsync(() -> {
                            throw new LoaderFailure(failure);
                        });
                    };
                    Outcome outcome;
                    try {
                        CompletableFuture<Object> future = c.retrieve(key.value(), loader);
                        outcome = settle(future, Outcome::completed);
                    } catch (RuntimeException e) {
                        outcome = Outcome.threw(e);
                    }
                    return outcome.withLoaderCalls(calls.get());
                });
    }

    /**
     * Spring's {@link Cache#retrieve(Object)} contract leaves the shape of a hit and a miss to the
     * implementation: "Can return {@code null} if the cache can immediately determine that it contains
     * no mapping ... Otherwise, the cached value will be returned in the CompletableFuture, with
     * {@code null} indicating a late-determined cache miss. A nested ValueWrapper potentially indicates
     * a nullable cached value; the cached value may also be represented as a plain element if null
     * values are not supported." ConcurrentMapCache answers {@code null} for a miss and, without nulls,
     * a plain value; so for the oracle a {@code null} future and a future of {@code null} are both a
     * miss, and a wrapper and a plain value both a hit. MemcachedCache is held to the shape docs/cache.md
     * gives it ("`retrieve(key)` ... a hit is a `ValueWrapper`, a miss `null`"): always a future,
     * completing with a wrapper or with null.
     */
    private static Outcome retrieveOutcome(Cache cache, CompletableFuture<?> future) {
        boolean oracle = cache instanceof DocumentedOracle;
        boolean holdsNulls = oracle ? ((DocumentedOracle) cache).isAllowNullValues()
                : ((AbstractValueAdaptingCache) cache).isAllowNullValues();
        if (future == null) {
            return oracle ? Outcome.wrapper(null) : new Outcome("null instead of a future", null, false, "", 0);
        }
        return settle(future, value -> {
            if (value == null) {
                return Outcome.wrapper(null);
            }
            if (value instanceof Cache.ValueWrapper wrapper) {
                return Outcome.wrapper(wrapper);
            }
            if (!oracle || holdsNulls) {
                return new Outcome("plain value instead of a ValueWrapper", value, true, "", 0);
            }
            return Outcome.wrapper(() -> value);
        });
    }

    /** What the future completes with; waits at most {@value #FUTURE_TIMEOUT_SECONDS} s (a hang is an outcome too). */
    private static Outcome settle(CompletableFuture<?> future, Function<Object, Outcome> onValue) {
        try {
            return onValue.apply(future.get(FUTURE_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            return Outcome.failed(e.getCause());
        } catch (TimeoutException e) {
            return new Outcome("not completed within " + FUTURE_TIMEOUT_SECONDS + " s", null, false, "", 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Keys, values and setups
    // ---------------------------------------------------------------------------------------------

    private static final List<Class<?>> TYPES = List.of(Object.class, String.class, Integer.class, Long.class,
            List.class, Map.class, Boolean.class, byte[].class);

    /** Pieces of random keys: plain, separators, whitespace and controls, multi-byte, surrogates (paired and not). */
    private static final String[] KEY_PIECES = {"a", "Z", "7", ":", "#", "%", "-", " ", "\t", "\n", "\u0000", "\u007F",
        "\u0085", "\u00A0", "é", "中", "\u2028", "😀", "\uD800", "\uDFFF"};

    /** Settings drawn per seed. */
    record Setup(String prefix, List<String> names, Duration refresh) {

        static Setup draw(Random random) {
            String prefix = List.of("", "app", "p".repeat(200)).get(random.nextInt(3));
            List<String> names = List.of(List.of("diff", "diff:1"), List.of("a%3A1", "a:1"),
                    List.of("cache with spaces ü", "c")).get(random.nextInt(3));
            Duration refresh = random.nextBoolean() ? Duration.ZERO : MemcachedCacheManager.DEFAULT_GENERATION_REFRESH_INTERVAL;
            return new Setup(prefix, names, refresh);
        }

        /** UTF-8 length of {@code prefix:name:generation:} for the first cache. */
        int namespaceBytes() {
            String name = names.get(0).replace("%", "%25").replace(":", "%3A");
            String namespace = prefix.isEmpty() ? name : prefix + ":" + name;
            return namespace.getBytes(StandardCharsets.UTF_8).length + 1 + GENERATION_DIGITS + 1;
        }

        @Override
        public String toString() {
            return "prefix " + literal(prefix) + ", caches " + literal(names.get(0)) + " (cache0) and "
                    + literal(names.get(1)) + " (cache1), generation refresh " + refresh;
        }
    }

    /**
     * The keys of a sequence: short strings, strings with whitespace, controls, non-ASCII, unpaired
     * surrogates or over 250 bytes, Integers, Longs and SimpleKeys, keys around the 250-byte limit of
     * the whole memcached key, and random strings. Keys with equal toString() are deliberate (42, 42L,
     * "42"): the oracle treats them as one entry, as documented. No null key: Spring 7's Cache is
     * null-marked, a key is never null (ConcurrentMapCache throws NullPointerException for one).
     */
    private static List<Sample> keys(Random random, Setup setup) {
        List<Sample> keys = new ArrayList<>();
        for (Object key : List.of("k1", "k2", "k3", "k4", "1:x", "", "key with spaces", "tab\tand\nnewline",
                "ключ", "鍵", "emoji 😀", "naïve", "#not-a-hash", "é".repeat(130), "a\uD800", "a\uDC00",
                "a?", 42, -7, Integer.MAX_VALUE, 42L, Long.MIN_VALUE, "42", "-7")) {
            keys.add(Sample.of(key));
        }
        // Over 250 bytes, and alike for their first 299 characters: hashing must tell them apart.
        keys.add(new Sample("x".repeat(300), "\"x\".repeat(300)"));
        keys.add(new Sample("x".repeat(300) + "1", "\"x\".repeat(300) + \"1\""));
        keys.add(new Sample("x".repeat(299) + "y", "\"x\".repeat(299) + \"y\""));
        keys.add(new Sample(new SimpleKey("a", 1), "new SimpleKey(\"a\", 1)"));
        keys.add(new Sample(new SimpleKey("a", "1"), "new SimpleKey(\"a\", \"1\")"));
        keys.add(new Sample(new SimpleKey(1, 2L, "three"), "new SimpleKey(1, 2L, \"three\")"));
        keys.add(new Sample(SimpleKey.EMPTY, "SimpleKey.EMPTY"));
        keys.add(new Sample(new SimpleKey("y".repeat(260), 9), "new SimpleKey(\"y\".repeat(260), 9)"));
        // Around memcached's 250 bytes for the whole key of cache0: the last plain key and the first hashed ones.
        int room = 250 - setup.namespaceBytes();
        for (int length = room - 1; length <= room + 1; length++) {
            if (length > 0) {
                keys.add(new Sample("b".repeat(length), "\"b\".repeat(" + length + ")"));
            }
        }
        if (room > 2) {
            keys.add(new Sample("é".repeat(room / 2), "\"é\".repeat(" + room / 2 + ")"));
            keys.add(new Sample("é".repeat(room / 2 + 1), "\"é\".repeat(" + (room / 2 + 1) + ")"));
        }
        for (int i = 0; i < 6; i++) {
            StringBuilder text = new StringBuilder();
            int pieces = 1 + random.nextInt(120);
            for (int p = 0; p < pieces; p++) {
                text.append(KEY_PIECES[random.nextInt(KEY_PIECES.length)]);
            }
            keys.add(Sample.of(text.toString()));
        }
        return keys;
    }

    /**
     * A value, {@code null} about one time in seven. Values are Serializable classes of the packages
     * the default allow-list admits (java.lang, java.util, java.time, java.math; docs/cache.md,
     * "Values and the serialization allow-list"). The string MemcachedCache.NULL_MARKER is never a
     * value: docs/cache.md says "caching that exact string as a real value would read back as null".
     */
    private static Sample value(Random random) {
        return random.nextInt(7) == 0 ? Sample.of(null) : nonNullValue(random);
    }

    private static Sample nonNullValue(Random random) {
        switch (random.nextInt(6)) {
            case 0:
                return Sample.of("v" + random.nextInt(20));
            case 1:
                return Sample.of(random.nextInt(1_000) - 500);
            case 2:
                int first = random.nextInt(10);
                int second = random.nextInt(10);
                return new Sample(List.of(first, second), "List.of(" + first + ", " + second + ")");
            default:
                int index = random.nextInt(FIXED_VALUES.size());
                return FIXED_VALUES.get(index);
        }
    }

    private static final List<Sample> FIXED_VALUES = List.of(
            Sample.of("v"), Sample.of(""), Sample.of("value with spaces"), Sample.of("värde ✓ 😀"),
            Sample.of("lone \uD800 surrogate"), new Sample("z".repeat(20_000), "\"z\".repeat(20_000)"),
            Sample.of(0), Sample.of(Integer.MIN_VALUE), Sample.of(7L), Sample.of(true), Sample.of(2.5d), Sample.of('c'),
            new Sample(List.of(), "List.of()"), new Sample(List.of(1, 2, 3), "List.of(1, 2, 3)"),
            new Sample(List.of("a", List.of("nested")), "List.of(\"a\", List.of(\"nested\"))"),
            new Sample(new ArrayList<>(Arrays.asList("x", null)), "new ArrayList<>(Arrays.asList(\"x\", null))"),
            new Sample(new LinkedList<>(List.of(1)), "new LinkedList<>(List.of(1))"),
            new Sample(new HashMap<>(Map.of("k", 1)), "new HashMap<>(Map.of(\"k\", 1))"),
            new Sample(new byte[] {1, 2, 3}, "new byte[] {1, 2, 3}"));

    /** Java source for a key or value, long strings shortened. */
    static String literal(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String text) {
            StringBuilder out = new StringBuilder("\"");
            for (int i = 0; i < Math.min(text.length(), 60); i++) {
                char c = text.charAt(i);
                if (c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA1) || Character.isSurrogate(c) || c == 0x2028) {
                    out.append(String.format("\\u%04X", (int) c));
                } else if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                } else {
                    out.append(c);
                }
            }
            out.append('"');
            return text.length() > 60 ? out + " + ... (" + text.length() + " chars)" : out.toString();
        }
        if (value instanceof Long) {
            return value + "L";
        }
        if (value instanceof Double) {
            return value + "d";
        }
        if (value instanceof Character) {
            return "'" + value + "'";
        }
        if (value instanceof byte[] bytes) {
            return Arrays.toString(bytes);
        }
        return value.toString();
    }

    static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
