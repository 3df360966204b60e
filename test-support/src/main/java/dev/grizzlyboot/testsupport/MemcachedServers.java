package dev.grizzlyboot.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A group of memcached processes started together, for tests and examples that need several
 * servers. Not thread-safe, like {@link MemcachedProcess}.
 */
public final class MemcachedServers implements AutoCloseable {

    private final List<MemcachedProcess> processes;

    private MemcachedServers(List<MemcachedProcess> processes) {
        this.processes = List.copyOf(processes);
    }

    /**
     * Starts {@code count} memcached processes, each on its own free loopback port.
     *
     * @throws MemcachedNotInstalledException if no memcached binary is installed
     */
    public static MemcachedServers start(int count, MemcachedOptions options) {
        List<MemcachedProcess> started = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                started.add(MemcachedProcess.start(options));
            }
        } catch (RuntimeException e) {
            started.forEach(MemcachedProcess::close);
            throw e;
        }
        return new MemcachedServers(started);
    }

    /** The i-th process (0-based). */
    public MemcachedProcess get(int index) {
        return processes.get(index);
    }

    /** All processes, in start order. */
    public List<MemcachedProcess> all() {
        return processes;
    }

    /** How many processes there are. */
    public int size() {
        return processes.size();
    }

    /** {@code host:port} of every process, in start order. */
    public List<String> addresses() {
        return processes.stream().map(MemcachedProcess::address).toList();
    }

    /** The addresses joined with commas, as a {@code servers} property takes them. */
    public String addressList() {
        return processes.stream().map(MemcachedProcess::address).collect(Collectors.joining(","));
    }

    /** Resumes paused processes and restarts dead ones, so the next test starts from a healthy group. */
    public void heal() {
        for (MemcachedProcess process : processes) {
            if (process.isPaused()) {
                process.resume();
            }
            if (!process.isRunning()) {
                process.restart();
            }
        }
    }

    /** Empties every process. */
    public void flushAll() {
        processes.forEach(MemcachedProcess::flushAll);
    }

    @Override
    public void close() {
        processes.forEach(MemcachedProcess::close);
    }
}
