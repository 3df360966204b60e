package dev.grizzlyboot.benchmarks.thrift;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;

/**
 * Thrift benchmark: our server and libthrift's TThreadPoolServer, TThreadedSelectorServer and
 * TNonblockingServer, each called by libthrift's TSocket client and by our pooled client, with
 * the compact protocol, {@code echo} payloads of about 300 B and 3 KB, and 4, 16 and 40
 * connections. Each cell runs a warm-up and several short rounds; the table reports the median
 * round (by requests/s) and, per row, the ratio to the best libthrift server.
 *
 * <p>Options (all optional): {@code --rounds=3 --seconds=0.8 --warmup=0.5 --connections=4,16,40
 * --payloads=300,3000 --observed=false}. With {@code --observed=true} our server and client report
 * every call to a Micrometer {@code ObservationRegistry} whose meter handler records timers, as
 * Spring Boot sets it up ({@code thrift.server.requests}, {@code thrift.client.requests}): run it
 * with and without to see what observation costs. Prints Markdown to standard output.
 */
public final class ThriftBenchmark {

    private ThriftBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
        Duration round = seconds(options.getOrDefault("seconds", "0.8"));
        Duration warmup = seconds(options.getOrDefault("warmup", "0.5"));
        int[] connections = ints(options.getOrDefault("connections", "4,16,40"));
        int[] payloads = ints(options.getOrDefault("payloads", "300,3000"));
        ObservationRegistry observations = Boolean.parseBoolean(options.getOrDefault("observed", "false"))
                ? meteredObservations() : null;

        System.out.printf(Locale.ROOT, "Java %s on %d cores; %d rounds of %s after a %s warm-up; median round shown%s%n%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), rounds, round, warmup,
                observations == null ? "" : "; our server and client observed (Micrometer timers)");
        System.out.println("| payload | conns | client | server | req/s | p50 µs | p99 µs | vs best libthrift server |");
        System.out.println("|---:|---:|---|---|---:|---:|---:|---:|");
        for (int payloadSize : payloads) {
            byte[] payload = new byte[payloadSize];
            Arrays.fill(payload, (byte) 'x');
            for (int conns : connections) {
                for (BenchClient client : BenchClient.values()) {
                    Map<BenchServer, LoadRound.Result> row = new LinkedHashMap<>();
                    for (BenchServer server : BenchServer.values()) {
                        row.put(server, measure(server, client, conns, payload, rounds, round, warmup, observations));
                    }
                    double bestPeer = row.entrySet().stream()
                            .filter(e -> e.getKey().label.startsWith("libthrift"))
                            .mapToDouble(e -> e.getValue().requestsPerSecond()).max().orElse(Double.NaN);
                    row.forEach((server, result) -> System.out.printf(Locale.ROOT,
                            "| %d B | %d | %s | %s | %,.0f | %.0f | %.0f | %.2f |%s%n",
                            payloadSize, conns, client.label, server.label, result.requestsPerSecond(),
                            result.p50Micros(), result.p99Micros(), result.requestsPerSecond() / bestPeer,
                            result.errors() > 0 ? " errors: " + result.errors() : ""));
                }
            }
        }
    }

    private static LoadRound.Result measure(BenchServer server, BenchClient client, int connections, byte[] payload,
                                            int rounds, Duration round, Duration warmup, ObservationRegistry observations)
            throws Exception {
        try (BenchServer.Running running = server.start(observations);
             BenchClient.Session session = client.open(running.port(), connections, observations)) {
            LoadRound.run(session.callers(), payload, warmup);
            List<LoadRound.Result> results = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                results.add(LoadRound.run(session.callers(), payload, round));
            }
            results.sort(Comparator.comparingDouble(LoadRound.Result::requestsPerSecond));
            return results.get(results.size() / 2);
        }
    }

    /** Observations recorded as timers in a simple registry: what Spring Boot's default handler does. */
    private static ObservationRegistry meteredObservations() {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
        return registry;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("expected --name=value, got " + arg);
            }
            options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        return options;
    }

    private static Duration seconds(String value) {
        return Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
    }

    private static int[] ints(String csv) {
        return Arrays.stream(csv.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
    }
}
