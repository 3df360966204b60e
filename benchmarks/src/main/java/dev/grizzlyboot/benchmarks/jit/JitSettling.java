package dev.grizzlyboot.benchmarks.jit;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * A warm-up that goes on until the JVM's JIT compilers are quiet, and the CPU their threads have
 * used, read from {@code /proc/self/task} on Linux. Unlike {@code CompilationMXBean}, which adds a
 * compilation's time only once it has finished, that also counts compilations still running, so a
 * quiet slice really had the compilers idle; elsewhere it falls back to the MXBean's figure.
 * Thread-safe.
 */
public final class JitSettling {
    /** How long each slice of the settling warm-up runs. */
    public static final Duration SLICE = Duration.ofMillis(250);
    /** Compiler CPU in a slice up to which the slice counts as quiet (a longer run may have as much per slice). */
    public static final long QUIET_MILLIS = 10;
    /** Quiet slices in a row that end the warm-up: a method can turn hot again a moment after one. */
    public static final int QUIET_SLICES = 2;

    private static final Path TASKS = Path.of("/proc/self/task");
    /** /proc reports CPU in USER_HZ ticks, 100 per second on every Linux. */
    private static final long MILLIS_PER_TICK = 10;

    /** Load of a cell, run for the given time. */
    @FunctionalInterface
    public interface Load {
        void run(Duration length) throws Exception;
    }

    private JitSettling() {
    }

    /**
     * Runs {@code load} for {@code warmup}, then for {@link #SLICE} at a time until {@link #QUIET_SLICES}
     * runs in a row saw the compilers quiet (at most {@link #QUIET_MILLIS} of their CPU per slice's
     * length; a quiet warm-up counts as one), or {@code most} more has passed (0: none).
     */
    public static void warmUp(Duration warmup, Duration most, Load load) throws Exception {
        warmUp(warmup, most, load, JitSettling::compilerMillis);
    }

    /** {@link #warmUp(Duration, Duration, Load)} with compiler CPU read from {@code compilerMillis}. */
    static void warmUp(Duration warmup, Duration most, Load load, LongSupplier compilerMillis) throws Exception {
        boolean quietWarmup = quietWhile(load, warmup, compilerMillis);
        long until = System.nanoTime() + most.toNanos();
        int quiet = quietWarmup ? 1 : 0;
        while (quiet < QUIET_SLICES && System.nanoTime() < until) {
            quiet = quietWhile(load, SLICE, compilerMillis) ? quiet + 1 : 0;
        }
    }

    private static boolean quietWhile(Load load, Duration length, LongSupplier compilerMillis) throws Exception {
        long before = compilerMillis.getAsLong();
        load.run(length);
        return (compilerMillis.getAsLong() - before) * SLICE.toNanos() <= QUIET_MILLIS * length.toNanos();
    }

    /** Milliseconds of CPU the JIT compiler threads have used so far. */
    public static long compilerMillis() {
        if (!Files.isDirectory(TASKS)) {
            return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        }
        try (Stream<Path> tasks = Files.list(TASKS)) {
            return tasks.mapToLong(JitSettling::compilerTicks).sum() * MILLIS_PER_TICK;
        } catch (IOException e) {
            return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        }
    }

    /** User and system clock ticks of a compiler thread (named "C1 CompilerThre…", "C2 …"), else 0. */
    private static long compilerTicks(Path task) {
        try {
            if (!Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                return 0;
            }
            String stat = Files.readString(task.resolve("stat"));
            // After the parenthesised name come the state (field 3), …, utime (14) and stime (15).
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            // The thread ended between the listing and the read.
            return 0;
        }
    }
}
