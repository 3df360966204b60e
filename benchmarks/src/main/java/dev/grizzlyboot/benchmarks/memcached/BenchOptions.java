package dev.grizzlyboot.benchmarks.memcached;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The command line of {@link MemcachedBenchmark}: {@code --name=value} options, plus {@code --quick}.
 *
 * @param rounds      measured rounds per cell; the median is reported
 * @param round       length of one measured round
 * @param warmup      unmeasured run before each cell's rounds
 * @param jitSettle   how much longer that run may go on while the JIT compilers are still busy
 * @param threads     caller thread counts
 * @param sizes       value sizes in bytes
 * @param clients     which clients to run (labels, or {@code all})
 * @param tuned       extra, clearly labelled variants of our client, e.g. {@code c8/d64/io1}
 * @param filter      only cells whose name (e.g. {@code getMulti/128/16/folsom}) contains a match
 * @param seedKeys    keys in the seed workload
 * @param seedBatch   keys per bulk call in the seed workload
 * @param seedRounds  runs per client of the seed workload's looped singles; the median is reported
 * @param seedBulkRounds runs per client of the seed workload's bulk calls; the median is reported
 * @param csv         where to write every result row for the chart, or {@code null}
 * @param scenarios   which scenarios to run, in this order: {@code single} (one server, the cells),
 *                    {@code seed} (one server, the seed workload), {@code cluster} (three servers,
 *                    Ketama), {@code floor} (one-thread get/set over a blocking socket: the round-trip
 *                    floor), {@code tls} (our client over TLS against the same client in plaintext),
 *                    {@code failover} (three servers, kill -9 one)
 * @param originalClasspath classpath of the grizzly-memcached-original module for its child JVM, or
 *                    {@code null} to leave that client out
 * @param failover    seconds into each failover run: kill one server, restart it, end the run
 * @param failoverTimeout operation timeout every client gets in the failover runs
 * @param jvmPerClient whether every client runs in a JVM of its own (like the original
 *                    grizzly-memcached always does) instead of all sharing the harness's JVM
 * @param interleave  whether a cell's rounds take turns between the clients (round 1 of each, then
 *                    round 2 of each, the starting client rotating) instead of each client running
 *                    all its rounds in a row: a slow stretch of the machine then falls on every
 *                    client's rounds alike instead of on one client's
 * @param builds      builds of our library to compare in one run, each in a JVM of its own with that
 *                    jar in place of ours ({@code --builds=a=/tmp/a.jar,b=/tmp/b.jar}; A/B runs)
 */
record BenchOptions(int rounds, Duration round, Duration warmup, Duration jitSettle, int[] threads, int[] sizes,
                    List<String> clients, List<GrizzlyBootBench.Knobs> tuned, Pattern filter, int seedKeys, int seedBatch,
                    int seedRounds, int seedBulkRounds, String csv, List<String> scenarios, String originalClasspath,
                    FailoverTimes failover, Duration failoverTimeout, boolean jvmPerClient,
                    boolean interleave, List<Build> builds) {

    private static final List<String> SCENARIOS = List.of("single", "seed", "cluster", "floor", "tls", "failover");

    static BenchOptions parse(String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String arg : args) {
            if (arg.equals("--quick")) {
                values.putIfAbsent("rounds", "1");
                values.putIfAbsent("seconds", "0.3");
                values.putIfAbsent("jit-settle", "0.5");
                values.putIfAbsent("threads", "1,64");
                values.putIfAbsent("sizes", "128");
                values.putIfAbsent("seed-keys", "10000");
                values.putIfAbsent("seed-bulk-rounds", "1");
                values.putIfAbsent("failover", "1,2.5,4");
            } else if (arg.startsWith("--") && arg.contains("=")) {
                values.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
            } else {
                throw new IllegalArgumentException("expected --quick or --name=value, got " + arg);
            }
        }
        BenchOptions options = new BenchOptions(
                Integer.parseInt(values.getOrDefault("rounds", "5")),
                seconds(values.getOrDefault("seconds", "0.2")),
                seconds(values.getOrDefault("warmup", "0.05")),
                seconds(values.getOrDefault("jit-settle", "8")),
                ints(values.getOrDefault("threads", "1,16,64,200")),
                ints(values.getOrDefault("sizes", "32,128,512")),
                List.of(values.getOrDefault("clients", "all").split(",")),
                values.containsKey("tuned")
                        ? Arrays.stream(values.get("tuned").split(",")).map(GrizzlyBootBench.Knobs::parse).toList()
                        : List.of(),
                Pattern.compile(values.getOrDefault("filter", "")),
                Integer.parseInt(values.getOrDefault("seed-keys", "100000")),
                Integer.parseInt(values.getOrDefault("seed-batch", "1000")),
                Integer.parseInt(values.getOrDefault("seed-rounds", "1")),
                Integer.parseInt(values.getOrDefault("seed-bulk-rounds", "3")),
                values.get("csv"),
                List.of(values.getOrDefault("scenarios", String.join(",", SCENARIOS)).split(",")),
                values.get("original-classpath"),
                FailoverTimes.parse(values.getOrDefault("failover", "2,5,8")),
                seconds(values.getOrDefault("failover-timeout", "0.5")),
                Boolean.parseBoolean(values.getOrDefault("jvm-per-client", "false")),
                Boolean.parseBoolean(values.getOrDefault("interleave", "true")),
                values.containsKey("builds")
                        ? Arrays.stream(values.get("builds").split(",")).map(Build::parse).toList()
                        : List.of());
        values.keySet().removeAll(List.of("rounds", "seconds", "warmup", "jit-settle", "threads", "sizes", "clients",
                "tuned", "filter", "seed-keys", "seed-batch", "seed-rounds", "seed-bulk-rounds", "csv", "scenarios",
                "original-classpath", "failover", "failover-timeout", "jvm-per-client", "interleave", "builds"));
        if (!values.isEmpty()) {
            throw new IllegalArgumentException("unknown options: " + values.keySet());
        }
        if (!SCENARIOS.containsAll(options.scenarios())) {
            throw new IllegalArgumentException("--scenarios takes " + SCENARIOS + ", got " + options.scenarios());
        }
        return options;
    }

    boolean wants(String cellName) {
        return filter.matcher(cellName).find();
    }

    boolean wantsClient(String label) {
        return clients.contains("all") || clients.contains(label);
    }

    /** Whether {@code --clients} names this client itself ({@code all} does not count). */
    boolean namesClient(String label) {
        return clients.contains(label);
    }

    /** A build of our library named in {@code --builds=NAME=JAR}: the name labels its rows. */
    record Build(String name, String jar) {

        static Build parse(String text) {
            int equals = text.indexOf('=');
            if (equals < 1 || equals == text.length() - 1) {
                throw new IllegalArgumentException("--builds takes NAME=JAR,..., got " + text);
            }
            return new Build(text.substring(0, equals), text.substring(equals + 1));
        }
    }

    /** When, from the start of a failover run, one server is killed and restarted, and when the run ends. */
    record FailoverTimes(Duration kill, Duration restart, Duration end) {

        static FailoverTimes parse(String text) {
            String[] parts = text.split(",");
            if (parts.length != 3) {
                throw new IllegalArgumentException("--failover takes kill,restart,end in seconds, got " + text);
            }
            FailoverTimes times = new FailoverTimes(seconds(parts[0]), seconds(parts[1]), seconds(parts[2]));
            if (times.kill.compareTo(times.restart) >= 0 || times.restart.compareTo(times.end) >= 0) {
                throw new IllegalArgumentException("--failover needs kill < restart < end, got " + text);
            }
            return times;
        }
    }

    private static Duration seconds(String value) {
        return Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
    }

    private static int[] ints(String csv) {
        return Arrays.stream(csv.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
    }
}
