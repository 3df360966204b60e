package dev.grizzlyboot.benchmarks.thrift;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time the JVM's JIT compiler threads have used, read from {@code /proc/self/task} on Linux.
 * Unlike {@code CompilationMXBean}, which adds a compilation's time only once it has finished, it
 * also counts compilations still running, so a quiet interval really had the compilers idle.
 * Elsewhere it falls back to the MXBean's figure. Thread-safe.
 */
final class CompilerCpu {
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final long NANOS_PER_TICK = 10_000_000L;

    private CompilerCpu() {
    }

    /** Milliseconds of CPU the compiler threads have used so far. */
    static long millis() {
        if (!Files.isDirectory(TASKS)) {
            return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        }
        try (Stream<Path> tasks = Files.list(TASKS)) {
            return tasks.mapToLong(CompilerCpu::compilerTicks).sum() * NANOS_PER_TICK / 1_000_000L;
        } catch (IOException e) {
            return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        }
    }

    /** User and system clock ticks of a compiler thread (its name starts "C1 Compiler"/"C2 Compiler"), else 0. */
    private static long compilerTicks(Path task) {
        try {
            if (!Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                return 0;
            }
            String stat = Files.readString(task.resolve("stat"));
            // Fields after the parenthesised name: state is field 3, utime 14 and stime 15.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            // The thread ended between the listing and the read.
            return 0;
        }
    }
}
