package dev.grizzlyboot.benchmarks.memcached;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import dev.grizzlyboot.testsupport.MemcachedProcess;

/**
 * The other side of a round's CPU: memcached's own CPU time (every thread of the scenario's
 * memcached processes, from {@code /proc/PID/task/TID/schedstat}, in nanoseconds) and how busy the
 * whole machine was (from {@code /proc/stat}). Together with the client's {@link ProcessCpu} they
 * show a cell's ceiling: when the machine is busy all the time, keys/s is the cores divided by
 * client plus server CPU per key. The watched process ids travel in a system property, so a
 * contender in a child JVM reads the same processes. Linux only; elsewhere both read as unknown.
 */
final class ServerCpu {

    static final String PIDS_PROPERTY = "grizzlyboot.bench.memcached-pids";

    /** The property's last value, parsed: it is read on every call (a later watch() changes it) but parsed once per value. */
    private static volatile Watched watched;

    private ServerCpu() {
    }

    /** Watches these memcached processes from now on, in this JVM and in child JVMs started after this. */
    static void watch(List<MemcachedProcess> servers) {
        System.setProperty(PIDS_PROPERTY,
                servers.stream().map(server -> Long.toString(server.pid())).collect(Collectors.joining(",")));
    }

    /** The {@code -D} option that hands the watched processes to a child JVM, or none. */
    static List<String> childJvmOptions() {
        String pids = System.getProperty(PIDS_PROPERTY);
        return pids == null ? List.of() : List.of("-D" + PIDS_PROPERTY + "=" + pids);
    }

    /** CPU time used so far by every thread of the watched memcached processes, or -1 if unknown. */
    static long serverNanos() {
        String pids = System.getProperty(PIDS_PROPERTY);
        if (pids == null || pids.isEmpty()) {
            return -1;
        }
        Watched current = watched;
        if (current == null || !current.pids().equals(pids)) {
            current = Watched.parse(pids);
            watched = current;
        }
        long total = 0;
        for (Path process : current.taskDirectories()) {
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(process)) {
                for (Path task : tasks) {
                    total += threadNanos(task.resolve("schedstat"));
                }
            } catch (NoSuchFileException e) {
                return -1;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return total;
    }

    /**
     * The machine's CPU counters from {@code /proc/stat}: {busy, total} in clock ticks over all
     * cores, or {@code null} if unknown. Busy is everything but idle and I/O wait.
     */
    static long[] machineTicks() {
        try {
            String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
            long[] f = Arrays.stream(first.trim().split("\\s+")).skip(1).mapToLong(Long::parseLong).toArray();
            long total = Arrays.stream(f).limit(8).sum();
            return new long[] {total - f[3] - f[4], total};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The share of all cores that was busy between two {@link #machineTicks()} readings, 0 to 1, or NaN. */
    static double busyShare(long[] before, long[] after) {
        if (before == null || after == null || after[1] == before[1]) {
            return Double.NaN;
        }
        return (double) (after[0] - before[0]) / (after[1] - before[1]);
    }

    private static long threadNanos(Path schedstat) throws IOException {
        try {
            return Long.parseLong(Files.readString(schedstat).trim().split("\\s+")[0]);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    /** The watched processes' {@code /proc/PID/task} directories, and the property value they came from. */
    private record Watched(String pids, List<Path> taskDirectories) {

        static Watched parse(String pids) {
            return new Watched(pids, Arrays.stream(pids.split(",")).map(pid -> Path.of("/proc", pid, "task")).toList());
        }
    }
}
