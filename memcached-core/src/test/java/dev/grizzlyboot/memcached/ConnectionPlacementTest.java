package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Single requests (reads and writes) stay on one connection per server while it is below the
 * pipeline depth, bulk writes at any depth, bulk reads spread over both (binary) or over two text
 * connections of their own, and none of it costs a caller its own value.
 */
class ConnectionPlacementTest {

    private static final int THREADS = 8;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void concurrentSingleRequestsAndBulkWritesLeaveTheSecondConnectionIdleAndBulkReadsUseIt() throws Exception {
        try (MemcachedClient client = twoConnections(32, false)) {
            BlockingMemcachedClient blocking = client.blocking();
            await().atMost(Duration.ofSeconds(10)).until(() -> idleSecondsOfClientConnections().size() == 2);
            // memcached counts a connection's idle time in whole seconds, so each phase runs for three.
            runFor(Duration.ofSeconds(3), thread -> {
                blocking.set("w-" + thread, "v", Duration.ZERO);
                blocking.setMulti(Map.of("wm-" + thread + "-a", "v", "wm-" + thread + "-b", "v"), Duration.ZERO);
                blocking.delete("wd-" + thread);
            });
            assertThat(idleSecondsOfClientConnections()).as("idle seconds of the client's two connections after writes")
                    .hasSize(2).filteredOn(seconds -> seconds >= 2).hasSize(1);

            runFor(Duration.ofSeconds(3), thread -> {
                blocking.get("w-" + thread);
                blocking.get("missing-" + thread);
            });
            assertThat(idleSecondsOfClientConnections()).as("idle seconds of the client's two connections after single reads")
                    .hasSize(2).filteredOn(seconds -> seconds >= 2).hasSize(1);

            runFor(Duration.ofSeconds(3), thread -> blocking.getMulti(List.of("wm-" + thread + "-a", "wm-" + thread + "-b")));
            assertThat(idleSecondsOfClientConnections()).as("idle seconds of the client's two connections after bulk reads")
                    .hasSize(2).allMatch(seconds -> seconds <= 1);
        }
    }

    @Test
    void textBulkReadsSpreadOverTwoTextConnectionsOfTheirOwnAndLeaveTheBinaryOnesAlone() throws Exception {
        try (MemcachedClient client = twoConnections()) {
            BlockingMemcachedClient blocking = client.blocking();
            await().atMost(Duration.ofSeconds(10)).until(() -> idleSecondsOfClientConnections().size() == 2);
            blocking.getMulti(List.of("first-a", "first-b"));
            await().atMost(Duration.ofSeconds(10)).until(() -> idleSecondsOfClientConnections().size() == 4);
            runFor(Duration.ofSeconds(3), thread -> blocking.getMulti(List.of("tm-" + thread + "-a", "tm-" + thread + "-b")));
            assertThat(idleSecondsOfClientConnections()).as("idle seconds of the client's four connections after bulk reads")
                    .hasSize(4).filteredOn(seconds -> seconds <= 1).hasSize(2);
        }
    }

    @Test
    void bulkWritesStayOnOneConnectionEvenPastThePipelineDepth() throws Exception {
        try (MemcachedClient client = twoConnections(1)) {
            BlockingMemcachedClient blocking = client.blocking();
            await().atMost(Duration.ofSeconds(10)).until(() -> idleSecondsOfClientConnections().size() == 2);
            runFor(Duration.ofSeconds(3), thread -> {
                blocking.setMulti(Map.of("bulk-" + thread + "-a", "v", "bulk-" + thread + "-b", "v"), Duration.ZERO);
                blocking.deleteMulti(List.of("bulk-" + thread + "-a"));
            });
            assertThat(idleSecondsOfClientConnections()).as("idle seconds of the client's two connections after bulk writes")
                    .hasSize(2).filteredOn(seconds -> seconds >= 2).hasSize(1);

            // Single writes past the depth (1 here) spill over to the other connection.
            runFor(Duration.ofSeconds(1), thread -> blocking.set("single-" + thread, "v", Duration.ZERO));
            assertThat(idleSecondsOfClientConnections()).as("idle seconds of the client's two connections after single writes")
                    .hasSize(2).allMatch(seconds -> seconds <= 1);
        }
    }

    @Test
    void interleavedWritesAndReadsFromManyThreadsKeepEveryValue() throws Exception {
        try (MemcachedClient client = twoConnections()) {
            BlockingMemcachedClient blocking = client.blocking();
            List<String> wrong = runFor(Duration.ofSeconds(2), (thread, round, mistakes) -> {
                Map<String, Object> values = new LinkedHashMap<>();
                for (int k = 0; k < 40; k++) {
                    values.put("mix-" + thread + "-" + k, "value-" + thread + "-" + k + "-" + round);
                }
                assertThat(blocking.setMulti(values, Duration.ZERO).errors()).isEmpty();
                Map<String, Object> read = blocking.getMulti(values.keySet()).values();
                if (!read.equals(values)) {
                    mistakes.add("getMulti after setMulti in round " + round + ": " + read);
                }
                String single = "one-" + thread;
                blocking.set(single, "single-" + thread + "-" + round, Duration.ZERO);
                Object got = blocking.get(single);
                if (!("single-" + thread + "-" + round).equals(got)) {
                    mistakes.add(single + " in round " + round + " -> " + got);
                }
                blocking.delete(single);
                if (blocking.get(single) != null) {
                    mistakes.add(single + " still there after its delete in round " + round);
                }
            });
            assertThat(wrong).isEmpty();
        }
    }

    private static MemcachedClient twoConnections() {
        return twoConnections(32);
    }

    private static MemcachedClient twoConnections(int pipelineDepth) {
        return twoConnections(pipelineDepth, true);
    }

    /** Two binary connections, and two text ones for bulk reads once one is made with {@code textBulkReads}. */
    private static MemcachedClient twoConnections(int pipelineDepth, boolean textBulkReads) {
        MemcachedClient client = MemcachedClient.builder().servers(memcached.addressList()).textBulkReads(textBulkReads)
                .connectionsPerServer(2, 2).pipelineDepth(pipelineDepth).connectTimeout(Duration.ofSeconds(10)).operationTimeout(Duration.ofSeconds(5)).build();
        client.blocking().noop();
        return client;
    }

    /** One caller's step, repeated until the phase ends. */
    @FunctionalInterface
    interface Round {
        void run(int thread, long round, List<String> mistakes);
    }

    /** Runs {@code step} in a loop on {@link #THREADS} threads for {@code duration}; returns the mistakes they noted. */
    private static List<String> runFor(Duration duration, Round step) throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(THREADS);
        try {
            long end = System.nanoTime() + duration.toNanos();
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                results.add(callers.submit(() -> {
                    List<String> mistakes = new ArrayList<>();
                    for (long round = 0; System.nanoTime() - end < 0; round++) {
                        step.run(thread, round, mistakes);
                    }
                    return mistakes;
                }));
            }
            List<String> all = new ArrayList<>();
            for (Future<List<String>> result : results) {
                all.addAll(result.get(duration.toSeconds() + 30, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            callers.shutdownNow();
        }
    }

    private static void runFor(Duration duration, IntConsumer step) throws Exception {
        runFor(duration, (thread, round, mistakes) -> step.accept(thread));
    }

    /**
     * Seconds since each of the client's connections last sent a command, from memcached's
     * {@code stats conns}: every connection but the listening socket and the one asking.
     */
    private static List<Integer> idleSecondsOfClientConnections() {
        Map<String, String> states = new LinkedHashMap<>();
        Map<String, Integer> idle = new LinkedHashMap<>();
        for (String line : memcached.first().textCommand("stats conns")) {
            String[] parts = line.split(" ", 3);
            if (parts.length < 3) {
                continue;
            }
            String[] field = parts[1].split(":", 2);
            if (field[1].equals("state")) {
                states.put(field[0], parts[2]);
            } else if (field[1].equals("secs_since_last_cmd")) {
                idle.put(field[0], Integer.parseInt(parts[2]));
            }
        }
        List<Integer> clients = new ArrayList<>();
        idle.forEach((connection, seconds) -> {
            String state = states.get(connection);
            // The asking connection is the one parsing or answering a command right now.
            if (!"conn_listening".equals(state) && !"conn_parse_cmd".equals(state) && !"conn_mwrite".equals(state)) {
                clients.add(seconds);
            }
        });
        return clients;
    }
}
