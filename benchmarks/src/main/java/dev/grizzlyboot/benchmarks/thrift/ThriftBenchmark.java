package dev.grizzlyboot.benchmarks.thrift;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import dev.grizzlyboot.benchmarks.jit.JitSettling;
import dev.grizzlyboot.thrift.ThriftProtocol;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;

/**
 * Thrift benchmark: our server and libthrift's TThreadPoolServer, TThreadedSelectorServer and
 * TNonblockingServer, each called by libthrift's TSocket client and by our pooled client, with
 * the binary and compact protocols, {@code echo} payloads of about 300 B and 3 KB, and 4, 16 and
 * 40 connections. Each cell runs a warm-up and several short rounds; the table reports the median
 * round (by requests/s), its process CPU time per call and, per row, the ratio to the best
 * libthrift server.
 *
 * <p>Options (all optional): {@code --rounds=3 --seconds=0.8 --warmup=0.5 --connections=4,16,40
 * --payloads=300,3000 --protocols=binary,compact --observed=false}; {@code --servers=} and
 * {@code --clients=} take a comma-separated subset of {@link BenchServer} and {@link BenchClient}
 * names (all by default), for A/B runs of a few cells. With {@code --observed=true} our server and
 * client report every call to a Micrometer {@code ObservationRegistry} whose meter handler records
 * timers, as Spring Boot sets it up ({@code thrift.server.requests}, {@code thrift.client.requests}):
 * run it with and without to see what observation costs. {@code --caller-cpu=true} adds a last
 * column, the calling threads' own CPU per call, to compare clients without the server's share.
 * {@code --jit-settle=8} is the most time, in seconds, a cell's warm-up goes on after
 * {@code --warmup} while the JIT compilers are still busy: it runs on in slices of 0.25 s until
 * two runs in a row (a quiet warm-up counts as one) saw at most 10 ms of compiler CPU per slice, so
 * that no server or client is measured while its code is still being compiled (on 2 busy cores that
 * took seconds for ours; {@link JitSettling}); 0 turns it off. The last two columns say how long the whole warm-up took and how much CPU the compilers used
 * during the measured rounds. Prints Markdown to standard output.
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
        List<ThriftProtocol> protocols =
                named(ThriftProtocol.class, options.getOrDefault("protocols", "binary,compact"));
        List<BenchServer> servers = named(BenchServer.class, options.getOrDefault("servers", all(BenchServer.class)));
        List<BenchClient> clients = named(BenchClient.class, options.getOrDefault("clients", all(BenchClient.class)));
        boolean callerCpu = Boolean.parseBoolean(options.getOrDefault("caller-cpu", "false"));
        ObservationRegistry observations = Boolean.parseBoolean(options.getOrDefault("observed", "false"))
                ? meteredObservations() : null;

        Duration jitSettle = seconds(options.getOrDefault("jit-settle", "8"));

        System.out.printf(Locale.ROOT, "Java %s on %d cores; %d rounds of %s after a %s warm-up, continued for "
                        + "up to %s until the JIT compilers were quiet; median round shown%s%n%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), rounds, round, warmup,
                jitSettle, observations == null ? "" : "; our server and client observed (Micrometer timers)");
        System.out.println("| protocol | payload | conns | client | server | req/s | p50 µs | p99 µs | CPU µs/call "
                + "| vs best libthrift server |" + (callerCpu ? " caller CPU µs/call |" : "")
                + " warm-up s | JIT ms in rounds |");
        System.out.println("|---|---:|---:|---|---|---:|---:|---:|---:|---:|" + (callerCpu ? "---:|" : "")
                + "---:|---:|");
        for (ThriftProtocol protocol : protocols) {
            for (int payloadSize : payloads) {
                byte[] payload = new byte[payloadSize];
                Arrays.fill(payload, (byte) 'x');
                for (int conns : connections) {
                    for (BenchClient client : clients) {
                        Map<BenchServer, Cell> row = new LinkedHashMap<>();
                        for (BenchServer server : servers) {
                            row.put(server, measure(server, client, conns, protocol, payload, rounds, round, warmup,
                                    jitSettle, observations));
                        }
                        double bestPeer = row.entrySet().stream()
                                .filter(e -> e.getKey().label.startsWith("libthrift"))
                                .mapToDouble(e -> e.getValue().median().requestsPerSecond()).max().orElse(Double.NaN);
                        row.forEach((server, cell) -> {
                            LoadRound.Result result = cell.median();
                            System.out.printf(Locale.ROOT,
                                    "| %s | %d B | %d | %s | %s | %,.0f | %.0f | %.0f | %.1f | %.2f |%s %.1f | %d |%s%n",
                                    protocol.name().toLowerCase(Locale.ROOT), payloadSize, conns, client.label,
                                    server.label, result.requestsPerSecond(), result.p50Micros(), result.p99Micros(),
                                    result.cpuMicrosPerCall(), result.requestsPerSecond() / bestPeer,
                                    callerCpu ? String.format(Locale.ROOT, " %.1f |", result.callerCpuMicrosPerCall()) : "",
                                    cell.warmupSeconds(), cell.compileMillis(),
                                    result.errors() > 0 ? " errors: " + result.errors() : "");
                        });
                    }
                }
            }
        }
    }

    /**
     * A cell's median round, how long its warm-up took with the JIT settling, and how long the JIT
     * compilers worked during all its measured rounds.
     */
    private record Cell(LoadRound.Result median, double warmupSeconds, long compileMillis) {
    }

    private static Cell measure(BenchServer server, BenchClient client, int connections, ThriftProtocol protocol,
                                byte[] payload, int rounds, Duration round, Duration warmup, Duration jitSettle,
                                ObservationRegistry observations) throws Exception {
        try (BenchServer.Running running = server.start(protocol, observations);
             BenchClient.Session session = client.open(running.port(), connections, protocol, observations)) {
            long warmupStart = System.nanoTime();
            JitSettling.warmUp(warmup, jitSettle, length -> LoadRound.run(session.callers(), payload, length));
            double warmupSeconds = (System.nanoTime() - warmupStart) / 1e9;
            List<LoadRound.Result> results = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                results.add(LoadRound.run(session.callers(), payload, round));
            }
            long compiled = results.stream().mapToLong(LoadRound.Result::compileMillis).sum();
            results.sort(Comparator.comparingDouble(LoadRound.Result::requestsPerSecond));
            return new Cell(results.get(results.size() / 2), warmupSeconds, compiled);
        }
    }

    /** Observations recorded as timers in a simple registry: what Spring Boot's default handler does. */
    private static ObservationRegistry meteredObservations() {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
        return registry;
    }

    static Map<String, String> options(String[] args) {
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

    private static <E extends Enum<E>> List<E> named(Class<E> type, String csv) {
        return Arrays.stream(csv.split(",")).map(s -> Enum.valueOf(type, s.trim().toUpperCase(Locale.ROOT))).toList();
    }

    private static <E extends Enum<E>> String all(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(","));
    }

    private static int[] ints(String csv) {
        return Arrays.stream(csv.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
    }
}
