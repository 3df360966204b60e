package dev.grizzlyboot.benchmarks.memcached;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;

/**
 * memcached benchmark: our client with its defaults (plus any {@code --tuned} variants), and
 * spymemcached, xmemcached and folsom, against one real memcached on loopback, in one run. For
 * get, set, getMulti(200) and setMulti(200) with each value size and caller-thread count, each
 * client gets a warm-up and several short rounds; the median round (by keys/s) is reported. Then
 * the seed workload (N sets then N deletes, looped singles vs bulk). Prints Markdown.
 *
 * <p>Options: {@code --quick}, {@code --rounds=3 --seconds=0.4 --warmup=0.25 --threads=1,16,64,200
 * --sizes=32,128,512 --clients=all --tuned=c8/d64/io1,... --filter=REGEX --seed-keys=100000
 * --seed-batch=1000 --seed-rounds=1 --seed-bulk-rounds=3 --csv=FILE}.
 */
public final class MemcachedBenchmark {

    private static final Duration CLIENT_WARMUP = Duration.ofMillis(400);

    private MemcachedBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options = BenchOptions.parse(args);
        long began = System.nanoTime();
        try (MemcachedProcess memcached = MemcachedProcess.start(
                MemcachedOptions.defaults().withThreads(2).withMemoryMegabytes(512));
             Contenders contenders = new Contenders(memcached.address(), options)) {
            System.out.printf(Locale.ROOT, "Java %s on %d cores; memcached -t 2 -m 512 on %s; %d round(s) of %s after a "
                            + "%s warm-up per cell; median round shown%n%n", System.getProperty("java.version"),
                    Runtime.getRuntime().availableProcessors(), memcached.address(), options.rounds(), options.round(),
                    options.warmup());
            Map<BenchClient, Map<Integer, KeySpace>> spaces = populate(contenders.all(), options.sizes());
            warmUp(contenders.all(), spaces, options);
            Report report = new Report(System.out);
            runCells(contenders.all(), spaces, options, report);
            report.summary();
            List<Report.SeedRow> seedRows = runSeed(contenders.all(), options);
            if (!seedRows.isEmpty()) {
                report.seed(seedRows, options.seedKeys(), options.seedBatch());
            }
            if (options.csv() != null) {
                report.writeCsv(Path.of(options.csv()), seedRows);
            }
            for (BenchClient client : contenders.all()) {
                System.out.printf(Locale.ROOT, "%nBulk writes, %s: %s", client.label(), client.bulkWriteNote());
            }
        }
        System.out.printf(Locale.ROOT, "%n%nTotal time %.0f s%n", (System.nanoTime() - began) / 1e9);
        System.exit(0);
    }

    private static Map<BenchClient, Map<Integer, KeySpace>> populate(List<BenchClient> clients, int[] sizes)
            throws Exception {
        Map<BenchClient, Map<Integer, KeySpace>> spaces = new HashMap<>();
        for (int c = 0; c < clients.size(); c++) {
            BenchClient client = clients.get(c);
            for (int size : sizes) {
                KeySpace keys = new KeySpace("c" + c, Workload.KeyCounts.PER_SPACE, size, Workload.KeyCounts.BATCH);
                for (int b = 0; b < keys.batchCount(); b++) {
                    client.setMulti(keys.entryBatch(b));
                }
                spaces.computeIfAbsent(client, k -> new HashMap<>()).put(size, keys);
            }
        }
        return spaces;
    }

    private static void warmUp(List<BenchClient> clients, Map<BenchClient, Map<Integer, KeySpace>> spaces,
                               BenchOptions options) throws InterruptedException {
        for (BenchClient client : clients) {
            for (Workload workload : Workload.values()) {
                LoadRound.run(client, workload, spaces.get(client).get(options.sizes()[0]), 16, CLIENT_WARMUP);
            }
        }
    }

    private static void runCells(List<BenchClient> clients, Map<BenchClient, Map<Integer, KeySpace>> spaces,
                                 BenchOptions options, Report report) throws InterruptedException {
        for (Workload workload : Workload.values()) {
            for (int size : options.sizes()) {
                for (int threads : options.threads()) {
                    List<Report.Row> cell = new ArrayList<>();
                    for (BenchClient client : clients) {
                        String name = workload.label + "/" + size + "/" + threads + "/" + client.label();
                        if (options.wants(name)) {
                            LoadRound.Result median = median(client, workload, spaces.get(client).get(size), threads,
                                    options);
                            cell.add(new Report.Row(workload, size, threads, client.label(),
                                    Contenders.isOurs(client), median));
                        }
                    }
                    if (!cell.isEmpty()) {
                        report.cell(cell);
                    }
                }
            }
        }
    }

    private static LoadRound.Result median(BenchClient client, Workload workload, KeySpace keys, int threads,
                                           BenchOptions options) throws InterruptedException {
        LoadRound.run(client, workload, keys, threads, options.warmup());
        List<LoadRound.Result> results = new ArrayList<>();
        for (int i = 0; i < options.rounds(); i++) {
            results.add(LoadRound.run(client, workload, keys, threads, options.round()));
        }
        return middle(results, LoadRound.Result::keysPerSecond);
    }

    private static List<Report.SeedRow> runSeed(List<BenchClient> clients, BenchOptions options) throws Exception {
        List<Report.SeedRow> rows = new ArrayList<>();
        for (int c = 0; c < clients.size(); c++) {
            BenchClient client = clients.get(c);
            if (!options.wants("seed/" + client.label())) {
                continue;
            }
            KeySpace keys = new KeySpace("seed" + c, options.seedKeys(), 128, options.seedBatch());
            List<SeedWorkload.Result> singles = new ArrayList<>();
            List<SeedWorkload.Result> bulk = new ArrayList<>();
            for (int round = 0; round < options.seedRounds(); round++) {
                singles.add(SeedWorkload.singles(client, keys));
            }
            for (int round = 0; round < options.seedBulkRounds(); round++) {
                bulk.add(SeedWorkload.bulk(client, keys));
            }
            rows.add(new Report.SeedRow(client.label(), Contenders.isOurs(client),
                    middle(singles, SeedWorkload.Result::opsPerSecond), middle(bulk, SeedWorkload.Result::opsPerSecond)));
        }
        return rows;
    }

    private static <T> T middle(List<T> results, ToDoubleFunction<T> by) {
        List<T> sorted = new ArrayList<>(results);
        sorted.sort(Comparator.comparingDouble(by));
        return sorted.get(sorted.size() / 2);
    }
}
