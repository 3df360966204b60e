package dev.grizzlyboot.benchmarks.memcached;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The line protocol between the harness and a contender in a child JVM: the harness writes one
 * command per line to the child's stdin, the child answers with result lines and then {@code ok}
 * (or one {@code error} line). Fields are tab-separated. Both ends live here so they stay in step.
 *
 * <pre>
 * child:   ready	LABEL	BULK-WRITE-NOTE
 * harness: populate	32,128,512                  child: ok
 * harness: warmup	128	400                        child: ok
 * harness: cell	get	128	64	250	8000	3	400      child: round	... (one per round), ok
 * harness: seed	100000	1000	1	3                child: singles	..., bulk	..., ok
 * harness: failover	128	8000                     child: started (when the load runs), bucket	... (one per
 *                                               100 ms), trace	..., ok
 * harness: quit
 * </pre>
 */
final class ContenderProtocol {

    private static final String TAB = "\t";

    private ContenderProtocol() {
    }

    /**
     * A child JVM's whole life: opens {@code client} under the key prefix, serves commands from
     * stdin on stdout until {@code quit}, then exits. Anything else the JVM or the client prints
     * goes to stderr, so stdout carries only the protocol.
     */
    static void serveOnStdio(BenchClient client, String prefix) throws Exception {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (InProcessContender contender = new InProcessContender(client, prefix)) {
            serve(contender, commands, protocol);
        }
        System.exit(0);
    }

    /**
     * The child's side: announces the contender on {@code out}, then serves commands from
     * {@code in} until {@code quit} or end of input.
     */
    static void serve(Contender contender, BufferedReader in, PrintStream out) throws IOException {
        out.println(join("ready", contender.label(), contender.bulkWriteNote()));
        out.flush();
        for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
            String[] f = line.split(TAB);
            try {
                switch (f[0]) {
                    case "populate" -> contender.populate(
                            Arrays.stream(f[1].split(",")).mapToInt(Integer::parseInt).toArray());
                    case "warmup" -> contender.warmUp(Integer.parseInt(f[1]), millis(f[2]));
                    case "cell" -> {
                        for (LoadRound.Result r : contender.cell(workload(f[1]), Integer.parseInt(f[2]),
                                Integer.parseInt(f[3]), millis(f[4]), millis(f[5]), Integer.parseInt(f[6]),
                                millis(f[7]))) {
                            out.println(round(r));
                        }
                    }
                    case "seed" -> {
                        Contender.SeedRuns runs = contender.seed(Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                                Integer.parseInt(f[3]), Integer.parseInt(f[4]));
                        runs.singles().forEach(r -> out.println(seedRun("singles", r)));
                        runs.bulk().forEach(r -> out.println(seedRun("bulk", r)));
                    }
                    case "failover" -> {
                        FailoverLoad.Running load = contender.failoverLoad(Integer.parseInt(f[1]), millis(f[2]));
                        out.println("started");
                        out.flush();
                        FailoverLoad.Trace trace = load.await();
                        for (int b = 0; b < trace.calls().length; b++) {
                            out.println(join("bucket", Long.toString(trace.calls()[b]), Long.toString(trace.errors()[b]),
                                    Long.toString(trace.misses()[b])));
                        }
                        out.println(join("trace", n(trace.p99Micros()), n(trace.maxMicros()),
                                trace.firstError() == null ? "" : trace.firstError()));
                    }
                    default -> throw new IllegalArgumentException("unknown command: " + line);
                }
                out.println("ok");
            } catch (Exception e) {
                out.println(join("error", e.toString()));
            }
            out.flush();
        }
    }

    static String populate(int[] sizes) {
        return join("populate", Arrays.stream(sizes).mapToObj(Integer::toString).collect(Collectors.joining(",")));
    }

    static String warmUp(int size, Duration length) {
        return join("warmup", Integer.toString(size), Long.toString(length.toMillis()));
    }

    static String cell(Workload workload, int size, int threads, Duration warmup, Duration jitSettle, int rounds,
                       Duration round) {
        return join("cell", workload.label, Integer.toString(size), Integer.toString(threads),
                Long.toString(warmup.toMillis()), Long.toString(jitSettle.toMillis()), Integer.toString(rounds),
                Long.toString(round.toMillis()));
    }

    static String seed(int keys, int batch, int singlesRounds, int bulkRounds) {
        return join("seed", Integer.toString(keys), Integer.toString(batch), Integer.toString(singlesRounds),
                Integer.toString(bulkRounds));
    }

    static String failover(int size, Duration length) {
        return join("failover", Integer.toString(size), Long.toString(length.toMillis()));
    }

    /** The {@code bucket} and {@code trace} lines of a {@code failover} answer. */
    static FailoverLoad.Trace trace(List<String> answer) {
        List<long[]> buckets = new ArrayList<>();
        String[] summary = null;
        for (String line : answer) {
            String[] f = line.split(TAB, -1);
            if (f[0].equals("bucket")) {
                buckets.add(new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])});
            } else if (f[0].equals("trace")) {
                summary = f;
            }
        }
        if (summary == null) {
            throw new IllegalStateException("no trace line in the failover answer: " + answer);
        }
        return new FailoverLoad.Trace(buckets.stream().mapToLong(b -> b[0]).toArray(),
                buckets.stream().mapToLong(b -> b[1]).toArray(), buckets.stream().mapToLong(b -> b[2]).toArray(),
                d(summary[1]), d(summary[2]), summary[3].isEmpty() ? null : summary[3]);
    }

    /** The {@code round} lines of a {@code cell} answer. */
    static List<LoadRound.Result> rounds(List<String> answer) {
        List<LoadRound.Result> results = new ArrayList<>();
        for (String line : answer) {
            String[] f = line.split(TAB, -1);
            if (f[0].equals("round")) {
                results.add(new LoadRound.Result(d(f[1]), d(f[2]), d(f[3]), d(f[4]), d(f[5]), d(f[6]), d(f[7]),
                        Long.parseLong(f[8]), Long.parseLong(f[9]), f[10].isEmpty() ? null : f[10],
                        Long.parseLong(f[11])));
            }
        }
        return results;
    }

    /** The {@code singles} or {@code bulk} lines of a {@code seed} answer. */
    static List<SeedWorkload.Result> seedRuns(List<String> answer, String kind) {
        List<SeedWorkload.Result> results = new ArrayList<>();
        for (String line : answer) {
            String[] f = line.split(TAB);
            if (f[0].equals(kind)) {
                results.add(new SeedWorkload.Result(d(f[1]), d(f[2]), d(f[3])));
            }
        }
        return results;
    }

    /** Splits a {@code ready} line into label and bulk-write note. */
    static String[] ready(String line) {
        String[] f = line.split(TAB);
        if (f.length != 3 || !f[0].equals("ready")) {
            throw new IllegalStateException("expected a ready line from the child JVM, got: " + line);
        }
        return new String[] {f[1], f[2]};
    }

    private static String round(LoadRound.Result r) {
        return join("round", n(r.callsPerSecond()), n(r.keysPerSecond()), n(r.p50Micros()), n(r.p99Micros()),
                n(r.cpuSecondsPer100kKeys()), n(r.serverCpuSecondsPer100kKeys()), n(r.machineBusy()),
                Long.toString(r.errors()), Long.toString(r.misses()),
                r.firstError() == null ? "" : r.firstError(), Long.toString(r.compileMillis()));
    }

    private static String seedRun(String kind, SeedWorkload.Result r) {
        return join(kind, n(r.seconds()), n(r.opsPerSecond()), n(r.cpuSecondsPer100kOps()));
    }

    private static Workload workload(String label) {
        return Arrays.stream(Workload.values()).filter(w -> w.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown workload " + label));
    }

    private static Duration millis(String text) {
        return Duration.ofMillis(Long.parseLong(text));
    }

    private static String n(double value) {
        return Double.toString(value);
    }

    private static double d(String text) {
        return Double.parseDouble(text);
    }

    /** Joins fields with tabs; tabs and line breaks inside a field (error texts) become spaces. */
    private static String join(String... fields) {
        return Arrays.stream(fields).map(f -> f.replaceAll("[\\t\\r\\n]", " ")).collect(Collectors.joining(TAB));
    }
}
