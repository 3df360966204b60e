package dev.grizzlyboot.benchmarks.memcached;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import dev.grizzlyboot.testsupport.MemcachedServers;
import dev.grizzlyboot.testsupport.MemcachedTls;
import dev.grizzlyboot.testsupport.TestCertificates;

/**
 * memcached benchmark: our client with its defaults (plus any {@code --tuned} variants), and
 * spymemcached, xmemcached, folsom and (in a child JVM) the original grizzly-memcached, in one run.
 * Six scenarios, each with its own memcached processes:
 * <ul>
 *   <li>{@code single}: one server; get, set, getMulti(200) and setMulti(200) with each value size
 *       and caller-thread count, each client a warm-up and several short rounds (taking turns
 *       with the other clients), the median round (by keys/s) reported;</li>
 *   <li>{@code seed}: one server, the seed workload (N sets then N deletes from one thread, looped
 *       singles vs bulk calls);</li>
 *   <li>{@code cluster}: three servers, every client on Ketama; the same cells as {@code single}
 *       (every workload, value size and caller-thread count), no seed workload;</li>
 *   <li>{@code failover}: three servers, get/set at 64 threads, one server killed with SIGKILL and
 *       restarted during the run (see {@link FailoverRun});</li>
 *   <li>{@code floor}: one server, get and set from one thread over a hand-written blocking socket
 *       ({@link RoundTripFloor}), the least a one-thread call can cost, for the one-thread rows;</li>
 *   <li>{@code tls}: our client over TLS (memcached {@code -Z}, the test certificates) against the
 *       same client in plaintext, get and set of 128 B at 1, 16 and 64 threads; the peers have no
 *       TLS support, so they are left out.</li>
 * </ul>
 * Prints Markdown.
 *
 * <p>Options: {@code --quick}, {@code --scenarios=single,seed,cluster,floor,tls,failover --rounds=5 --seconds=0.2
 * --warmup=0.05 --jit-settle=8 --threads=1,16,64,200 --sizes=32,128,512 --clients=all --tuned=c8/d64/io1,...
 * --filter=REGEX --seed-keys=100000 --seed-batch=1000 --seed-rounds=1 --seed-bulk-rounds=3
 * --failover=2,5,8 --failover-timeout=0.5 --jvm-per-client=false --interleave=true --original-classpath=CP --builds=NAME=JAR,... --csv=FILE}.
 */
public final class MemcachedBenchmark {

    static final MemcachedOptions MEMCACHED = MemcachedOptions.defaults().withThreads(2).withMemoryMegabytes(512);
    private static final Duration CLIENT_WARMUP = Duration.ofMillis(400);
    private static final int CLUSTER_SERVERS = 3;
    private static final int TLS_SIZE = 128;

    private MemcachedBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options = BenchOptions.parse(args);
        long began = System.nanoTime();
        System.out.printf(Locale.ROOT, "Java %s on %d cores; memcached -t %d -m %d per server; %d round(s) of %s after a "
                        + "%s warm-up per cell%s; median round shown%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), MEMCACHED.threads(), MEMCACHED.memoryMegabytes(),
                options.rounds(), options.round(), options.warmup(),
                options.interleave() ? ", the clients taking turns round by round" : ", each client's rounds in a row");
        if (options.originalClasspath() == null && options.wantsClient(Contenders.ORIGINAL)) {
            System.out.println("grizzly-memcached (original) left out: no --original-classpath "
                    + "(benchmarks/run-memcached.sh passes it)");
        }
        List<Report> reports = new ArrayList<>();
        List<Report.SeedRow> seedRows = new ArrayList<>();
        for (String scenario : options.scenarios()) {
            long scenarioBegan = System.nanoTime();
            switch (scenario) {
                case "single" -> reports.add(single(options));
                case "seed" -> seed(options, seedRows);
                case "cluster" -> reports.add(cluster(options));
                case "floor" -> reports.add(floor(options));
                case "tls" -> reports.add(tls(options));
                case "failover" -> FailoverRun.runAll(options);
                default -> throw new IllegalStateException("no scenario " + scenario);
            }
            System.out.printf(Locale.ROOT, "%nScenario %s took %.0f s%n", scenario, (System.nanoTime() - scenarioBegan) / 1e9);
        }
        if (options.csv() != null) {
            Report.writeCsv(Path.of(options.csv()), reports, seedRows);
        }
        System.out.printf(Locale.ROOT, "%n%nTotal time %.0f s%n", (System.nanoTime() - began) / 1e9);
        System.exit(0);
    }

    private static Report single(BenchOptions options) throws Exception {
        Report report = new Report(System.out, "cell");
        try (MemcachedProcess memcached = MemcachedProcess.start(MEMCACHED);
             Contenders contenders = contenders(List.of(memcached), options, true)) {
            System.out.printf(Locale.ROOT, "%n## One server (%s)%n%n", memcached.address());
            prepare(contenders.all(), options.sizes());
            runCells(contenders::in, "", Workload.values(), options.sizes(), options.threads(), options, report);
            report.summary();
            printBulkWriteNotes(contenders.all());
        }
        return report;
    }

    /**
     * The seed workload on a server of its own, after the same warm-up as the first cell of
     * {@code single} (its own scenario so that each scenario set runs in under 10 minutes).
     */
    private static void seed(BenchOptions options, List<Report.SeedRow> seedRows) throws Exception {
        Report report = new Report(System.out, "seed");
        try (MemcachedProcess memcached = MemcachedProcess.start(MEMCACHED);
             Contenders contenders = contenders(List.of(memcached), options, false)) {
            System.out.printf(Locale.ROOT, "%n## Seed workload, one server (%s)%n", memcached.address());
            prepare(contenders.all(), new int[] {SeedWorkload.VALUE_SIZE});
            seedRows.addAll(runSeed(contenders.all(), options));
            if (!seedRows.isEmpty()) {
                report.seed(seedRows, options.seedKeys(), options.seedBatch());
            }
        }
    }

    private static Report cluster(BenchOptions options) throws Exception {
        Report report = new Report(System.out, "cluster");
        try (MemcachedServers servers = MemcachedServers.start(CLUSTER_SERVERS, MEMCACHED);
             Contenders contenders = contenders(servers.all(), options, true)) {
            System.out.printf(Locale.ROOT, "%n## %d servers, Ketama (%s)%n%n", CLUSTER_SERVERS, servers.addressList());
            prepare(contenders.all(), options.sizes());
            runCells(contenders::in, "cluster/", Workload.values(), options.sizes(), options.threads(), options, report);
            report.summary();
        }
        return report;
    }

    private static Report floor(BenchOptions options) throws Exception {
        Report report = new Report(System.out, "floor");
        try (MemcachedProcess memcached = MemcachedProcess.start(MEMCACHED);
             Contender floor = new InProcessContender(new RoundTripFloor(memcached.address()), "rf")) {
            ServerCpu.watch(List.of(memcached));
            System.out.printf(Locale.ROOT, "%n## Round-trip floor: one thread, blocking socket (%s)%n%n", memcached.address());
            floor.populate(options.sizes());
            runCells(workload -> List.of(floor), "floor/", new Workload[] {Workload.GET, Workload.SET}, options.sizes(),
                    new int[] {1}, options, report);
        }
        return report;
    }

    private static Report tls(BenchOptions options) throws Exception {
        Report report = new Report(System.out, "tls");
        int[] sizes = {TLS_SIZE};
        try (MemcachedProcess plaintext = MemcachedProcess.start(MEMCACHED);
             MemcachedProcess secure = MemcachedProcess.start(MEMCACHED.withTls(MemcachedTls.server()));
             Contender reference = new InProcessContender(
                     GrizzlyBootBench.plaintextReference(tlsTarget(plaintext)), "tp");
             Contender tls = new InProcessContender(
                     GrizzlyBootBench.overTls(tlsTarget(secure), TestCertificates.clientContext()), "tt")) {
            System.out.printf(Locale.ROOT, "%n## TLS: %s over TLS (%s) against itself in plaintext (%s); "
                    + "the 'vs best peer' column is TLS over plaintext%n%n", Contenders.OURS, secure.address(), plaintext.address());
            ServerCpu.watch(List.of(plaintext, secure));
            List<Contender> both = List.of(reference, tls);
            prepare(both, sizes);
            runCells(workload -> both, "tls/", new Workload[] {Workload.GET, Workload.SET}, sizes, new int[] {1, 16, 64}, options, report);
            report.summary();
        }
        return report;
    }

    /** Every client of the run against these servers, whose CPU time each round then also reads. */
    private static Contenders contenders(List<MemcachedProcess> servers, BenchOptions options, boolean withTextPeers)
            throws Exception {
        ServerCpu.watch(servers);
        return new Contenders(ClientTarget.of(servers.stream().map(MemcachedProcess::address).toList()), options,
                withTextPeers);
    }

    /** Room for a cold JVM's first TLS handshake, which the first (bulk) call of the run waits for. */
    private static ClientTarget tlsTarget(MemcachedProcess server) {
        return ClientTarget.of(List.of(server.address())).withOperationTimeout(Duration.ofSeconds(5));
    }

    /** Populates every contender's key spaces, then warms each one up (JIT) before the first cell. */
    private static void prepare(List<Contender> contenders, int[] sizes) throws Exception {
        for (Contender contender : contenders) {
            contender.populate(sizes);
        }
        for (Contender contender : contenders) {
            contender.warmUp(sizes[0], CLIENT_WARMUP);
        }
    }

    /** Runs every cell of the workloads; {@code contenders} gives those that take part in a workload's cells. */
    private static void runCells(Function<Workload, List<Contender>> contenders, String prefix, Workload[] workloads,
                                 int[] sizes, int[] threadCounts, BenchOptions options, Report report) throws Exception {
        for (Workload workload : workloads) {
            for (int size : sizes) {
                for (int threads : threadCounts) {
                    List<Contender> inCell = new ArrayList<>();
                    for (Contender contender : contenders.apply(workload)) {
                        if (options.wants(prefix + workload.label + "/" + size + "/" + threads + "/" + contender.label())) {
                            inCell.add(contender);
                        }
                    }
                    if (inCell.isEmpty()) {
                        continue;
                    }
                    Map<Contender, List<LoadRound.Result>> rounds = measure(inCell, workload, size, threads, options);
                    List<Report.Row> cell = new ArrayList<>();
                    for (Contender contender : inCell) {
                        LoadRound.Result median = middle(rounds.get(contender), LoadRound.Result::keysPerSecond);
                        cell.add(new Report.Row(workload, size, threads, contender.label(),
                                Contenders.isOurs(contender.label()), median));
                    }
                    report.cell(cell);
                }
            }
        }
    }

    /**
     * Every client's rounds of one cell. Interleaved (the default), the clients take turns, one
     * round each, and the client that starts a turn rotates; only the first turn's warm-up waits
     * for the JIT, later ones warm up for {@code --warmup} alone (the client sat idle while the
     * others ran). Runs of one cell on this machine drift by 20% and more over a few seconds, so
     * rounds run in a row would hand one client a slow stretch that the next one does not see.
     */
    private static Map<Contender, List<LoadRound.Result>> measure(List<Contender> contenders, Workload workload, int size,
                                                                  int threads, BenchOptions options) throws Exception {
        Map<Contender, List<LoadRound.Result>> results = new HashMap<>();
        if (!options.interleave()) {
            for (Contender contender : contenders) {
                results.put(contender, contender.cell(workload, size, threads, options.warmup(), options.jitSettle(),
                        options.rounds(), options.round()));
            }
            return results;
        }
        for (int turn = 0; turn < options.rounds(); turn++) {
            Duration jitSettle = turn == 0 ? options.jitSettle() : Duration.ZERO;
            for (int i = 0; i < contenders.size(); i++) {
                Contender contender = contenders.get((turn + i) % contenders.size());
                results.computeIfAbsent(contender, any -> new ArrayList<>()).addAll(contender.cell(workload, size, threads,
                        options.warmup(), jitSettle, 1, options.round()));
            }
        }
        return results;
    }

    private static List<Report.SeedRow> runSeed(List<Contender> contenders, BenchOptions options) throws Exception {
        List<Report.SeedRow> rows = new ArrayList<>();
        for (Contender contender : contenders) {
            if (!options.wants("seed/" + contender.label())) {
                continue;
            }
            Contender.SeedRuns runs = contender.seed(options.seedKeys(), options.seedBatch(), options.seedRounds(),
                    options.seedBulkRounds());
            rows.add(new Report.SeedRow(contender.label(), Contenders.isOurs(contender.label()),
                    middle(runs.singles(), SeedWorkload.Result::opsPerSecond),
                    middle(runs.bulk(), SeedWorkload.Result::opsPerSecond)));
        }
        return rows;
    }

    private static void printBulkWriteNotes(List<Contender> contenders) {
        for (Contender contender : contenders) {
            System.out.printf(Locale.ROOT, "%nBulk writes, %s: %s", contender.label(), contender.bulkWriteNote());
        }
        System.out.println();
    }

    private static <T> T middle(List<T> results, ToDoubleFunction<T> by) {
        List<T> sorted = new ArrayList<>(results);
        sorted.sort(Comparator.comparingDouble(by));
        return sorted.get(sorted.size() / 2);
    }
}
