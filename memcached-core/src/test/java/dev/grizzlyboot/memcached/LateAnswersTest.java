package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.grizzlyboot.memcached.cluster.ServerDetails;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Calls that time out because their answers come late (the server hung with SIGSTOP in the middle
 * of a mixed getMulti/get/set/setMulti load, as a starved process answers late) lose nothing: the
 * late answers, released in one burst that spans many reads, are consumed on the connections they
 * were asked on, no caller gets another's value, nothing stays queued or in flight, and every
 * timed-out key reads back its own value from the same client.
 */
class LateAnswersTest {

    private static final Duration TIMEOUT = Duration.ofMillis(300);
    /** Around the header (24 B), the flags (4 B), read-buffer sizes, and a value spanning many reads. */
    private static final int[] SIZES = {0, 1, 4, 23, 24, 25, 1023, 1024, 8191, 8192, 8193, 65535, 65536, 65537, 300_000};

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    @Test
    void everyTimedOutCallIsAnsweredLateOnItsOwnConnectionAndLosesNothing() throws Exception {
        // Timeouts must not mark a server failed here: that would flush it and route around it.
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addressList())
                .connectionsPerServer(2, 2).operationTimeout(TIMEOUT).failureThreshold(Integer.MAX_VALUE).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            Map<String, byte[]> stored = new LinkedHashMap<>();
            for (int i = 0; i < SIZES.length * 4; i++) {
                byte[] value = new byte[SIZES[i % SIZES.length]];
                new Random(i).nextBytes(value);
                stored.put("late:" + i, value);
            }
            stored.forEach((key, value) -> patiently(() -> {
                blocking.set(key, value, Duration.ZERO);
                return true;
            }));
            assertThat(stored.keySet().stream().map(client::serverFor).distinct()).hasSize(2);
            // Counted once both binary and both text (bulk-read) connections to each server are open, so that
            // a late connect does not count as a replacement.
            patiently(() -> blocking.getMulti(stored.keySet()));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> client.serverDetails().stream().allMatch(details -> details.openConnections() == 4));
            Map<String, String> connectionsBefore = patiently(() -> totalConnections(blocking));

            MixedLoad load = new MixedLoad(blocking, stored);
            try {
                for (int server = 0; server < 2; server++) {
                    MemcachedProcess hung = memcached.get(server);
                    long answered = load.answered.get();
                    await().atMost(Duration.ofSeconds(10)).until(() -> load.answered.get() > answered + 200);
                    long timedOut = load.timedOutCalls.get();
                    hung.pause();
                    try {
                        await().atMost(Duration.ofSeconds(10)).until(() -> load.timedOutCalls.get() > timedOut + 20);
                    } finally {
                        hung.resume();
                    }
                }
                long answered = load.answered.get();
                await().atMost(Duration.ofSeconds(10)).until(() -> load.answered.get() > answered + 200);
            } finally {
                load.stop();
            }

            assertThat(load.wrong).as("values that are not the key's own, or misses of stored keys").isEmpty();
            assertThat(load.unexpected).as("errors other than timeouts").isEmpty();
            assertThat(load.timedOutKeys).as("keys of timed-out calls").isNotEmpty();
            // Every late answer was read and matched: nothing is left queued or in flight.
            await().atMost(Duration.ofSeconds(10)).until(() -> client.serverDetails().stream().mapToInt(ServerDetails::pending).sum() == 0);
            List<String> retried = new ArrayList<>(load.timedOutKeys);
            BulkResult<Object> again = patiently(() -> {
                BulkResult<Object> read = blocking.getMulti(retried);
                return read.errors().values().stream().anyMatch(MemcachedTimeoutException.class::isInstance) ? null : read;
            });
            for (String key : retried) {
                assertThat(again.outcome(key)).as(key).isEqualTo(Outcome.FOUND);
                assertThat((byte[]) again.get(key).value()).as(key).isEqualTo(stored.get(key));
            }
            // The late answers were consumed where they were asked: no connection was closed and replaced.
            assertThat(patiently(() -> totalConnections(blocking))).isEqualTo(connectionsBefore);
        }
    }

    /**
     * The call's result, asked again while it times out (or returns {@code null}): on a loaded
     * machine a call outside the hung phases may time out too, honestly, with the short timeout.
     */
    private static <T> T patiently(Callable<T> call) {
        return await().atMost(Duration.ofSeconds(20)).ignoreExceptionsInstanceOf(MemcachedTimeoutException.class)
                .until(call, Objects::nonNull);
    }

    /** memcached's count of connections ever accepted, per server, asked over the client's own connections. */
    private static Map<String, String> totalConnections(BlockingMemcachedClient blocking) {
        Map<String, String> counts = new LinkedHashMap<>();
        blocking.stats().forEach((server, stats) -> counts.put(server.toString(), stats.get("total_connections")));
        return counts;
    }

    /**
     * Caller threads mixing getMulti (stored keys and misses, each call in its own order), get,
     * set and setMulti of the stored values, recording every timed-out key and anything wrong.
     */
    private static final class MixedLoad {

        private static final int CALLERS = 8;

        /** Calls that returned with no timeout. */
        final AtomicLong answered = new AtomicLong();
        final AtomicLong timedOutCalls = new AtomicLong();
        final Set<String> timedOutKeys = ConcurrentHashMap.newKeySet();
        final ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
        private final BlockingMemcachedClient blocking;
        private final Map<String, byte[]> stored;
        private final List<String> keys;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        private final List<Future<?>> loops = new ArrayList<>();

        MixedLoad(BlockingMemcachedClient blocking, Map<String, byte[]> stored) {
            this.blocking = blocking;
            this.stored = stored;
            this.keys = new ArrayList<>(stored.keySet());
            for (int caller = 0; caller < CALLERS; caller++) {
                Random random = new Random(caller);
                loops.add(callers.submit(() -> {
                    while (running.get()) {
                        call(random);
                    }
                }));
            }
        }

        private void call(Random random) {
            String key = keys.get(random.nextInt(keys.size()));
            List<String> called = List.of(key);
            boolean timedOut = false;
            try {
                switch (random.nextInt(4)) {
                    case 0, 1 -> {
                        List<String> shuffled = new ArrayList<>(keys);
                        Collections.shuffle(shuffled, random);
                        called = new ArrayList<>(shuffled.subList(0, 1 + random.nextInt(keys.size())));
                        called.add("late:missing:" + random.nextInt(100));
                        timedOut = check(blocking.getMulti(called), called);
                    }
                    case 2 -> {
                        if (!(blocking.get(key) instanceof byte[] value) || !Arrays.equals(value, stored.get(key))) {
                            wrong.add("get " + key);
                        }
                    }
                    default -> {
                        if (random.nextBoolean()) {
                            blocking.set(key, stored.get(key), Duration.ZERO);
                        } else {
                            called = List.of(key, keys.get(random.nextInt(keys.size())));
                            Map<String, byte[]> values = new LinkedHashMap<>();
                            called.forEach(each -> values.put(each, stored.get(each)));
                            timedOut = check(blocking.setMulti(values, Duration.ZERO), called);
                        }
                    }
                }
            } catch (MemcachedTimeoutException e) {
                timedOut = true;
            } catch (MemcachedException e) {
                unexpected.add(e.toString());
                return;
            }
            if (timedOut) {
                timedOut(called);
            } else {
                answered.incrementAndGet();
            }
        }

        /** Records wrong answers and other errors; whether any key of the call timed out. */
        private boolean check(BulkResult<Object> result, List<String> called) {
            boolean timedOut = false;
            for (String key : called) {
                KeyResult<Object> answer = result.get(key);
                if (answer.error() instanceof MemcachedTimeoutException) {
                    timedOut = true;
                } else if (answer.outcome() == Outcome.ERROR) {
                    unexpected.add(key + ": " + answer.error());
                } else if (answer.outcome() == Outcome.FOUND && !Arrays.equals((byte[]) answer.value(), stored.get(key))) {
                    wrong.add("getMulti " + key + " got another value");
                } else if (answer.outcome() == Outcome.NOT_FOUND && stored.containsKey(key)) {
                    wrong.add("getMulti " + key + " missed");
                }
            }
            return timedOut;
        }

        private void timedOut(List<String> called) {
            timedOutCalls.incrementAndGet();
            for (String key : called) {
                if (stored.containsKey(key)) {
                    timedOutKeys.add(key);
                }
            }
        }

        void stop() throws Exception {
            running.set(false);
            try {
                for (Future<?> loop : loops) {
                    loop.get(30, TimeUnit.SECONDS);
                }
            } finally {
                callers.shutdownNow();
            }
        }
    }
}
