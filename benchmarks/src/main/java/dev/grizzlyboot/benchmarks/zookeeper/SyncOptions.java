package dev.grizzlyboot.benchmarks.zookeeper;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@link SyncBenchmark}: {@code --name=value} options. Immutable.
 *
 * @param members        member counts to run, one cluster each (e.g. {@code 5,20,50,100,500})
 * @param changes        server-list changes per member count
 * @param commitDelay    the sync's commit delay (decision to T)
 * @param sessionTimeout ZooKeeper session timeout of every member
 * @param startThreads   how many members are started at the same time
 * @param csv            where to write one row per change, or {@code null}
 */
record SyncOptions(int[] members, int changes, Duration commitDelay, Duration sessionTimeout, int startThreads,
                   String csv) {

    static SyncOptions parse(String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("expected --name=value, got " + arg);
            }
            values.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        SyncOptions options = new SyncOptions(
                Arrays.stream(values.getOrDefault("members", "5,20,50,100").split(",")).mapToInt(Integer::parseInt).toArray(),
                Integer.parseInt(values.getOrDefault("changes", "3")),
                Duration.ofMillis(Long.parseLong(values.getOrDefault("commit-delay-ms", "2000"))),
                Duration.ofMillis(Long.parseLong(values.getOrDefault("session-timeout-ms", "15000"))),
                Integer.parseInt(values.getOrDefault("start-threads", "8")),
                values.get("csv"));
        values.keySet().removeAll(List.of("members", "changes", "commit-delay-ms", "session-timeout-ms",
                "start-threads", "csv"));
        if (!values.isEmpty()) {
            throw new IllegalArgumentException("unknown options " + values.keySet());
        }
        return options;
    }
}
