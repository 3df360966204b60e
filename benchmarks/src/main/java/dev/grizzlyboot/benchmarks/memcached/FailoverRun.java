package dev.grizzlyboot.benchmarks.memcached;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;

import dev.grizzlyboot.testsupport.MemcachedProcess;
import dev.grizzlyboot.testsupport.MemcachedServers;

/**
 * The failover scenario: three memcached servers; for each in-process client in turn, 64 caller
 * threads loop over blocking get or set (a coin flip per call, random keys of a populated space,
 * 128 B values) while one server is killed with SIGKILL and later restarted (empty) on the same
 * port. Calls, errors and misses are counted in 100 ms buckets; the report gives when errors stop
 * after the kill and when the restarted server takes traffic again (its {@code cmd_get + cmd_set},
 * polled over the text protocol). Every client gets the same operation timeout and otherwise its
 * defaults, so this shows each client's own failover behaviour. Runs on the harness thread.
 */
final class FailoverRun {

    private static final int SERVERS = 3;
    private static final int VICTIM = 1;
    private static final int THREADS = 64;
    private static final int VALUE_SIZE = 128;
    private static final Duration BUCKET = Duration.ofMillis(100);
    private static final Duration STATS_POLL = Duration.ofMillis(20);

    /** One client's run; times are from the start of the run. */
    record Result(String client, long[] calls, long[] errors, long[] misses, Duration killedAt, Duration restartedAt,
                  Duration trafficBackAfter, double p99Micros, double maxMicros, String firstError) {

        long total(long[] buckets, Duration from, Duration to) {
            long sum = 0;
            for (int b = bucket(from); b < Math.min(bucket(to), buckets.length); b++) {
                sum += buckets[b];
            }
            return sum;
        }

        /** From the kill to the end of the last bucket with errors before the restart; null if errors never stopped. */
        Duration errorsStopAfterKill() {
            int last = -1;
            for (int b = bucket(killedAt); b < bucket(restartedAt); b++) {
                if (errors[b] > 0) {
                    last = b;
                }
            }
            if (last < 0) {
                return Duration.ZERO;
            }
            return last == bucket(restartedAt) - 1 ? null : BUCKET.multipliedBy(last + 1).minus(killedAt);
        }
    }

    private FailoverRun() {
    }

    static void runAll(BenchOptions options) throws Exception {
        List<Result> results = new ArrayList<>();
        try (MemcachedServers servers = MemcachedServers.start(SERVERS, MemcachedBenchmark.MEMCACHED)) {
            ClientTarget target = ClientTarget.of(servers.addresses()).withOperationTimeout(options.failoverTimeout());
            BenchOptions.FailoverTimes times = options.failover();
            System.out.printf(Locale.ROOT, "%n## Failover: %d servers (%s), %d threads of get/set, operation timeout %d ms;"
                            + " kill -9 server %d at %.1f s, restart at %.1f s, end at %.1f s%n%n", SERVERS,
                    servers.addressList(), THREADS, options.failoverTimeout().toMillis(), VICTIM + 1,
                    seconds(times.kill()), seconds(times.restart()), seconds(times.end()));
            List<Contenders.ClientFactory> factories = Contenders.inProcessFactories(options);
            for (int i = 0; i < factories.size(); i++) {
                try (BenchClient client = factories.get(i).open(target)) {
                    if (options.wants("failover/" + client.label())) {
                        results.add(run(client, new KeySpace("f" + i, Workload.KeyCounts.PER_SPACE, VALUE_SIZE,
                                Workload.KeyCounts.BATCH), servers.get(VICTIM), times));
                    }
                }
                servers.heal();
            }
        }
        print(results);
        if (options.csv() != null && !results.isEmpty()) {
            writeCsv(Path.of(options.csv()).resolveSibling("memcached-failover.csv"), results);
        }
    }

    private static Result run(BenchClient client, KeySpace keys, MemcachedProcess victim, BenchOptions.FailoverTimes times)
            throws Exception {
        for (int b = 0; b < keys.batchCount(); b++) {
            client.setMulti(keys.entryBatch(b));
        }
        int buckets = bucket(times.end()) + 1;
        AtomicLongArray calls = new AtomicLongArray(buckets);
        AtomicLongArray errors = new AtomicLongArray(buckets);
        AtomicLongArray misses = new AtomicLongArray(buckets);
        AtomicReference<String> firstError = new AtomicReference<>();
        Histogram latencies = new Histogram(2);
        long start = System.nanoTime();
        long end = start + times.end().toNanos();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread caller = new Thread(() -> {
                Histogram own = new Histogram(2);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (long begin = System.nanoTime(); begin < end; begin = System.nanoTime()) {
                    String key = keys.key(random.nextInt(keys.size()));
                    boolean missed = false;
                    boolean failed = false;
                    try {
                        if (random.nextBoolean()) {
                            missed = client.get(key) == null;
                        } else {
                            client.set(key, keys.value());
                        }
                    } catch (Exception e) {
                        failed = true;
                        firstError.compareAndSet(null, e.toString());
                    }
                    long done = System.nanoTime();
                    own.recordValue(done - begin);
                    int b = Math.min((int) ((done - start) / BUCKET.toNanos()), buckets - 1);
                    calls.incrementAndGet(b);
                    if (failed) {
                        errors.incrementAndGet(b);
                    } else if (missed) {
                        misses.incrementAndGet(b);
                    }
                }
                synchronized (latencies) {
                    latencies.add(own);
                }
            }, "failover-caller-" + t);
            caller.setDaemon(true);
            callers.add(caller);
            caller.start();
        }
        parkUntil(start + times.kill().toNanos());
        // kill() sends SIGKILL at once, then waits for the exit, which can take a while on a busy machine.
        Duration killedAt = Duration.ofNanos(System.nanoTime() - start);
        victim.kill();
        parkUntil(start + times.restart().toNanos());
        victim.restart();
        long restarted = System.nanoTime();
        Duration trafficBack = null;
        while (trafficBack == null && System.nanoTime() < end) {
            Map<String, String> stats = victim.stats();
            if (Long.parseLong(stats.get("cmd_get")) + Long.parseLong(stats.get("cmd_set")) > 0) {
                trafficBack = Duration.ofNanos(System.nanoTime() - restarted);
            } else {
                LockSupport.parkNanos(STATS_POLL.toNanos());
            }
        }
        for (Thread caller : callers) {
            caller.join();
        }
        return new Result(client.label(), toArray(calls), toArray(errors), toArray(misses), killedAt,
                Duration.ofNanos(restarted - start), trafficBack, latencies.getValueAtPercentile(99) / 1000.0,
                latencies.getMaxValue() / 1000.0, firstError.get());
    }

    private static void print(List<Result> results) {
        System.out.println("| client | calls | errors | errors before kill | errors kill→restart | errors after restart "
                + "| misses | errors stop after kill | restarted server takes traffic after | p99 µs | max µs |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Result r : results) {
            Duration end = BUCKET.multipliedBy(r.calls().length);
            Duration stop = r.errorsStopAfterKill();
            System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %,d | %,d | %s | %s | %.0f | %.0f |%n",
                    r.client(), r.total(r.calls(), Duration.ZERO, end), r.total(r.errors(), Duration.ZERO, end),
                    r.total(r.errors(), Duration.ZERO, r.killedAt()),
                    r.total(r.errors(), r.killedAt(), r.restartedAt()), r.total(r.errors(), r.restartedAt(), end),
                    r.total(r.misses(), Duration.ZERO, end),
                    stop == null ? "not before restart" : stop.toMillis() + " ms",
                    r.trafficBackAfter() == null ? "not within the run" : r.trafficBackAfter().toMillis() + " ms",
                    r.p99Micros(), r.maxMicros());
        }
        System.out.println();
        System.out.println("Errors per 100 ms (kill at [, restart at ]):");
        System.out.println();
        System.out.println("```");
        for (Result r : results) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-30s", r.client()));
            for (int b = 0; b < r.errors().length; b++) {
                line.append(b == bucket(r.killedAt()) ? '[' : b == bucket(r.restartedAt()) ? ']' : ' ')
                        .append(r.errors()[b]);
            }
            System.out.println(line);
        }
        System.out.println("```");
        for (Result r : results) {
            if (r.firstError() != null) {
                System.out.printf(Locale.ROOT, "%nFirst error, %s: %s", r.client(), r.firstError());
            }
        }
        System.out.println();
    }

    private static void writeCsv(Path file, List<Result> results) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("client,bucket_start_ms,calls,errors,misses,kill_ms,restart_ms,traffic_back_ms");
        for (Result r : results) {
            for (int b = 0; b < r.calls().length; b++) {
                lines.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%s", r.client(), b * BUCKET.toMillis(),
                        r.calls()[b], r.errors()[b], r.misses()[b], r.killedAt().toMillis(), r.restartedAt().toMillis(),
                        r.trafficBackAfter() == null ? "" : Long.toString(r.trafficBackAfter().toMillis())));
            }
        }
        Files.write(file, lines);
    }

    private static int bucket(Duration at) {
        return (int) (at.toNanos() / BUCKET.toNanos());
    }

    private static long[] toArray(AtomicLongArray counts) {
        long[] values = new long[counts.length()];
        for (int i = 0; i < values.length; i++) {
            values[i] = counts.get(i);
        }
        return values;
    }

    private static void parkUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
