package dev.grizzlyboot.benchmarks.memcached;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints the results as Markdown tables: every client's row per cell as it completes, then a
 * summary of ours against the best peer, then the seed workload. Ratios divide by the best peer's
 * keys/s in the same workload, value size and thread count. Optionally writes every row as CSV
 * for the chart.
 */
final class Report {

    /** One client's median round in one cell. */
    record Row(Workload workload, int size, int threads, String client, boolean ours, LoadRound.Result result) {
    }

    /** One client's median seed-workload runs. */
    record SeedRow(String client, boolean ours, SeedWorkload.Result singles, SeedWorkload.Result bulk) {
    }

    private final PrintStream out;
    private final String kind;
    private final List<Row> rows = new ArrayList<>();
    private boolean headerPrinted;

    /** A report whose rows go to the CSV with the given {@code kind} ({@code cell}, {@code cluster}). */
    Report(PrintStream out, String kind) {
        this.out = out;
        this.kind = kind;
    }

    void cell(List<Row> cell) {
        if (!headerPrinted) {
            out.println("| op | value | threads | client | calls/s | keys/s | p50 µs | p99 µs | CPU s/100k keys "
                    + "| memcached CPU s/100k keys | machine busy | vs best peer |");
            out.println("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
            headerPrinted = true;
        }
        double bestPeer = bestPeer(cell);
        for (Row row : cell) {
            LoadRound.Result r = row.result();
            out.printf(Locale.ROOT, "| %s | %d B | %d | %s | %,.0f | %,.0f | %.0f | %.0f | %.2f | %.2f | %.0f%% | %.2f |%s%n",
                    row.workload().label, row.size(), row.threads(), row.client(), r.callsPerSecond(),
                    r.keysPerSecond(), r.p50Micros(), r.p99Micros(), r.cpuSecondsPer100kKeys(),
                    r.serverCpuSecondsPer100kKeys(), r.machineBusy() * 100, r.keysPerSecond() / bestPeer, problems(r));
        }
        out.flush();
        rows.addAll(cell);
    }

    void summary() {
        Map<String, List<Row>> cells = new LinkedHashMap<>();
        for (Row row : rows) {
            cells.computeIfAbsent(row.workload().label + "/" + row.size() + "/" + row.threads(), k -> new ArrayList<>())
                    .add(row);
        }
        boolean summaryHeaderPrinted = false;
        for (List<Row> cell : cells.values()) {
            Row first = cell.get(0);
            Row peer = cell.stream().filter(r -> !r.ours())
                    .max((a, b) -> Double.compare(a.result().keysPerSecond(), b.result().keysPerSecond())).orElse(null);
            Row ours = cell.stream().filter(r -> r.client().equals(Contenders.OURS)).findFirst().orElse(null);
            if (peer == null || ours == null) {
                continue;
            }
            if (!summaryHeaderPrinted) {
                out.println();
                out.println("| op | value | threads | ours keys/s | best peer | peer keys/s | ratio | tuned variants (ratio) |");
                out.println("|---|---:|---:|---:|---|---:|---:|---|");
                summaryHeaderPrinted = true;
            }
            double best = peer.result().keysPerSecond();
            StringBuilder tuned = new StringBuilder();
            cell.stream().filter(r -> r.ours() && r != ours).forEach(r -> tuned.append(tuned.isEmpty() ? "" : ", ")
                    .append(r.client().substring(Contenders.OURS.length() + " tuned ".length()))
                    .append(String.format(Locale.ROOT, " %.2f", r.result().keysPerSecond() / best)));
            out.printf(Locale.ROOT, "| %s | %d B | %d | %,.0f | %s | %,.0f | %.2f | %s |%n", first.workload().label,
                    first.size(), first.threads(), ours.result().keysPerSecond(), peer.client(), best,
                    ours.result().keysPerSecond() / best, tuned);
        }
        out.flush();
    }

    void seed(List<SeedRow> seedRows, int keys, int batch) {
        double bestPeerSingles = seedRows.stream().filter(r -> !r.ours())
                .mapToDouble(r -> r.singles().opsPerSecond()).max().orElse(Double.NaN);
        double bestPeerBulk = seedRows.stream().filter(r -> !r.ours())
                .mapToDouble(r -> r.bulk().opsPerSecond()).max().orElse(Double.NaN);
        out.println();
        out.printf(Locale.ROOT, "Seed workload: %,d sets then %,d deletes, one caller thread; bulk in batches of %,d%n%n",
                keys, keys, batch);
        out.println("| client | singles s | singles ops/s | singles CPU s/100k | bulk s | bulk ops/s | bulk CPU s/100k "
                + "| bulk vs best peer singles | bulk vs best peer bulk |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (SeedRow row : seedRows) {
            out.printf(Locale.ROOT, "| %s | %.2f | %,.0f | %.2f | %.2f | %,.0f | %.2f | %.2f | %.2f |%n", row.client(),
                    row.singles().seconds(), row.singles().opsPerSecond(), row.singles().cpuSecondsPer100kOps(),
                    row.bulk().seconds(), row.bulk().opsPerSecond(), row.bulk().cpuSecondsPer100kOps(),
                    row.bulk().opsPerSecond() / bestPeerSingles, row.bulk().opsPerSecond() / bestPeerBulk);
        }
        out.flush();
    }

    /** Writes the rows of every report, then the seed rows, as one CSV file. */
    static void writeCsv(Path file, List<Report> reports, List<SeedRow> seedRows) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("kind,op,size,threads,client,calls_per_s,keys_per_s,p50_us,p99_us,cpu_s_per_100k,errors,"
                + "server_cpu_s_per_100k,machine_busy,compile_ms,misses");
        for (Report report : reports) {
            for (Row row : report.rows) {
                LoadRound.Result r = row.result();
                lines.add(String.format(Locale.ROOT, "%s,%s,%d,%d,%s,%.1f,%.1f,%.1f,%.1f,%.4f,%d,%.4f,%.3f,%d,%d",
                        report.kind, row.workload().label, row.size(), row.threads(), row.client(), r.callsPerSecond(),
                        r.keysPerSecond(), r.p50Micros(), r.p99Micros(), r.cpuSecondsPer100kKeys(), r.errors(),
                        r.serverCpuSecondsPer100kKeys(), r.machineBusy(), r.compileMillis(), r.misses()));
            }
        }
        for (SeedRow row : seedRows) {
            lines.add(String.format(Locale.ROOT, "seed,singles,0,1,%s,,%.1f,,,%.4f,0,,,,", row.client(),
                    row.singles().opsPerSecond(), row.singles().cpuSecondsPer100kOps()));
            lines.add(String.format(Locale.ROOT, "seed,bulk,0,1,%s,,%.1f,,,%.4f,0,,,,", row.client(),
                    row.bulk().opsPerSecond(), row.bulk().cpuSecondsPer100kOps()));
        }
        Files.write(file, lines);
    }

    private static double bestPeer(List<Row> cell) {
        return cell.stream().filter(r -> !r.ours()).mapToDouble(r -> r.result().keysPerSecond()).max()
                .orElse(Double.NaN);
    }

    private static String problems(LoadRound.Result r) {
        String text = "";
        if (r.errors() > 0) {
            text += " errors: " + r.errors() + " (first: " + r.firstError().replace('|', '/') + ")";
        }
        if (r.misses() > 0) {
            text += " misses: " + r.misses();
        }
        return text;
    }
}
