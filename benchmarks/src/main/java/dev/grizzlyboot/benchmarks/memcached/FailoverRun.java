package dev.grizzlyboot.benchmarks.memcached;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import dev.grizzlyboot.testsupport.MemcachedProcess;
import dev.grizzlyboot.testsupport.MemcachedServers;

/**
 * The failover scenario: three memcached servers; for each client in turn (one open at a time, the
 * original grizzly-memcached in its child JVM), the {@link FailoverLoad} of 64 get/set callers runs
 * while one server is killed with SIGKILL and later restarted (empty) on the same port. The report
 * gives errors before, during and after the outage, when errors stop after the kill, and when the
 * restarted server takes traffic again (its {@code cmd_get + cmd_set}, polled over the text
 * protocol). Every client gets the same operation timeout and otherwise its defaults, so this
 * shows each client's own failover behaviour. Runs on the harness thread.
 */
final class FailoverRun {

    private static final int SERVERS = 3;
    private static final int VICTIM = 1;
    private static final int VALUE_SIZE = 128;
    private static final Duration BUCKET = FailoverLoad.BUCKET;
    private static final Duration STATS_POLL = Duration.ofMillis(20);

    /** One client's run; times are from the start of its load. */
    record Result(String client, FailoverLoad.Trace trace, Duration killedAt, Duration restartedAt,
                  Duration trafficBackAfter) {

        long total(long[] buckets, Duration from, Duration to) {
            long sum = 0;
            for (int b = bucket(from); b < Math.min(bucket(to), buckets.length); b++) {
                sum += buckets[b];
            }
            return sum;
        }

        /** From the kill to the end of the last bucket with errors before the restart; null if errors never stopped. */
        Duration errorsStopAfterKill() {
            long[] errors = trace.errors();
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
        List<Contenders.Opener> openers = Contenders.openers(options, false).stream().map(Contenders.Selected::opener).toList();
        List<Result> results = new ArrayList<>();
        try (MemcachedServers servers = MemcachedServers.start(SERVERS, MemcachedBenchmark.MEMCACHED)) {
            ClientTarget target = ClientTarget.of(servers.addresses()).withOperationTimeout(options.failoverTimeout());
            BenchOptions.FailoverTimes times = options.failover();
            System.out.printf(Locale.ROOT, "%n## Failover: %d servers (%s), %d threads of get/set, operation timeout %d ms;"
                            + " kill -9 server %d at %.1f s, restart at %.1f s, end at %.1f s%n%n", SERVERS,
                    servers.addressList(), FailoverLoad.THREADS, options.failoverTimeout().toMillis(), VICTIM + 1,
                    seconds(times.kill()), seconds(times.restart()), seconds(times.end()));
            for (int i = 0; i < openers.size(); i++) {
                try (Contender contender = openers.get(i).open(target, "f" + i)) {
                    if (options.wants("failover/" + contender.label())) {
                        results.add(run(contender, servers.get(VICTIM), times));
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

    private static Result run(Contender contender, MemcachedProcess victim, BenchOptions.FailoverTimes times)
            throws Exception {
        contender.populate(new int[] {VALUE_SIZE});
        FailoverLoad.Running load = contender.failoverLoad(VALUE_SIZE, times.end());
        long start = load.startedNanos();
        long end = start + times.end().toNanos();
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
        return new Result(contender.label(), load.await(), killedAt, Duration.ofNanos(restarted - start), trafficBack);
    }
    private static void print(List<Result> results) {
        System.out.println("| client | calls | errors | errors before kill | errors kill→restart | errors after restart "
                + "| misses | errors stop after kill | restarted server takes traffic after | p99 µs | max µs |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Result r : results) {
            Duration end = BUCKET.multipliedBy(r.trace().calls().length);
            Duration stop = r.errorsStopAfterKill();
            System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %,d | %,d | %s | %s | %.0f | %.0f |%n",
                    r.client(), r.total(r.trace().calls(), Duration.ZERO, end), r.total(r.trace().errors(), Duration.ZERO, end),
                    r.total(r.trace().errors(), Duration.ZERO, r.killedAt()),
                    r.total(r.trace().errors(), r.killedAt(), r.restartedAt()), r.total(r.trace().errors(), r.restartedAt(), end),
                    r.total(r.trace().misses(), Duration.ZERO, end),
                    stop == null ? "not before restart" : stop.toMillis() + " ms",
                    r.trafficBackAfter() == null ? "not within the run" : r.trafficBackAfter().toMillis() + " ms",
                    r.trace().p99Micros(), r.trace().maxMicros());
        }
        System.out.println();
        System.out.println("Errors per 100 ms (kill at [, restart at ]):");
        System.out.println();
        System.out.println("```");
        for (Result r : results) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-30s", r.client()));
            for (int b = 0; b < r.trace().errors().length; b++) {
                line.append(b == bucket(r.killedAt()) ? '[' : b == bucket(r.restartedAt()) ? ']' : ' ')
                        .append(r.trace().errors()[b]);
            }
            System.out.println(line);
        }
        System.out.println("```");
        for (Result r : results) {
            if (r.trace().firstError() != null) {
                System.out.printf(Locale.ROOT, "%nFirst error, %s: %s", r.client(), r.trace().firstError());
            }
        }
        System.out.println();
    }

    private static void writeCsv(Path file, List<Result> results) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("client,bucket_start_ms,calls,errors,misses,kill_ms,restart_ms,traffic_back_ms");
        for (Result r : results) {
            for (int b = 0; b < r.trace().calls().length; b++) {
                lines.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%s", r.client(), b * BUCKET.toMillis(),
                        r.trace().calls()[b], r.trace().errors()[b], r.trace().misses()[b], r.killedAt().toMillis(), r.restartedAt().toMillis(),
                        r.trafficBackAfter() == null ? "" : Long.toString(r.trafficBackAfter().toMillis())));
            }
        }
        Files.write(file, lines);
    }

    private static int bucket(Duration at) {
        return (int) (at.toNanos() / BUCKET.toNanos());
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
