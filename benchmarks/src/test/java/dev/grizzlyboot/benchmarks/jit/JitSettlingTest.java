package dev.grizzlyboot.benchmarks.jit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The settling warm-up's rule, with the compilers' CPU scripted per run of load, and the reading of
 * this JVM's real compiler threads.
 */
class JitSettlingTest {

    private static final Duration WARMUP = Duration.ofMillis(300);

    private final List<Duration> runs = new ArrayList<>();
    private final Deque<Long> compiledPerRun = new ArrayDeque<>();
    private long compiled;

    @Test
    void compilerCpuIsReadFromTheCompilerThreads() {
        assumeThat(Files.isDirectory(Path.of("/proc/self/task"))).as("Linux /proc").isTrue();
        // A JVM that has run JUnit has compiled hundreds of methods: well over one 10 ms tick of C1 and C2.
        assertThat(JitSettling.compilerMillis()).isGreaterThanOrEqualTo(10);
    }

    @Test
    void theWarmUpEndsAtTheFirstTwoQuietRunsInARow() throws Exception {
        // Warm-up busy; quiet, busy, quiet, quiet: a quiet run followed by a busy one starts over.
        warmUp(WARMUP, Duration.ofSeconds(10), 30L, 0L, 20L, 10L, 0L, 0L);

        assertThat(runs).containsExactly(WARMUP, JitSettling.SLICE, JitSettling.SLICE, JitSettling.SLICE,
                JitSettling.SLICE);
    }

    @Test
    void aQuietWarmUpCountsAsTheFirstQuietRun() throws Exception {
        warmUp(WARMUP, Duration.ofSeconds(10), 12L, 0L, 0L);

        assertThat(runs).containsExactly(WARMUP, JitSettling.SLICE);
    }

    @Test
    void quietIsMeasuredPerSliceLength() throws Exception {
        // 10 ms in 0.1 s is busier than 10 ms in 0.25 s, so this warm-up is not quiet.
        warmUp(Duration.ofMillis(100), Duration.ofSeconds(10), 10L, 0L, 0L, 0L);

        assertThat(runs).containsExactly(Duration.ofMillis(100), JitSettling.SLICE, JitSettling.SLICE);
    }

    @Test
    void compilersThatStayBusyAreWaitedForOnlyUntilTheLimit() throws Exception {
        long began = System.nanoTime();
        JitSettling.warmUp(WARMUP, Duration.ofMillis(200), length -> {
            runs.add(length);
            compiled += 50;
        }, () -> compiled);

        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
        assertThat(runs).hasSizeGreaterThan(2);
    }

    @Test
    void withNoTimeToSettleOnlyTheWarmUpRuns() throws Exception {
        warmUp(WARMUP, Duration.ZERO, 30L, 0L, 0L);

        assertThat(runs).containsExactly(WARMUP);
    }

    /** Runs the warm-up with load that takes no time and "compiles" the next scripted amount per run. */
    private void warmUp(Duration warmup, Duration most, Long... script) throws Exception {
        compiledPerRun.addAll(Arrays.asList(script));
        JitSettling.warmUp(warmup, most, length -> {
            runs.add(length);
            compiled += compiledPerRun.removeFirst();
        }, () -> compiled);
    }
}
