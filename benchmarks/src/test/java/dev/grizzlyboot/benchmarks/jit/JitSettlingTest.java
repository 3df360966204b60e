package dev.grizzlyboot.benchmarks.jit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The settling warm-up's contract, against this JVM's own compiler threads. */
class JitSettlingTest {

    /** One run of load the warm-up asked for: how long, and the compiler CPU meanwhile. */
    private record Run(Duration length, long compiledMillis) {
        boolean quiet() {
            return compiledMillis * JitSettling.SLICE.toNanos() <= JitSettling.QUIET_MILLIS * length.toNanos();
        }
    }

    private final List<Run> runs = new ArrayList<>();

    @Test
    void compilerCpuIsReadFromTheCompilerThreads() {
        assumeThat(Files.isDirectory(Path.of("/proc/self/task"))).as("Linux /proc").isTrue();
        // A JVM that has run JUnit has compiled hundreds of methods: well over one 10 ms tick of C1 and C2.
        assertThat(JitSettling.compilerMillis()).isGreaterThanOrEqualTo(10);
    }

    @Test
    void theWarmUpEndsAtTheFirstTwoQuietRunsInARow() throws Exception {
        long began = System.nanoTime();
        JitSettling.warmUp(Duration.ofMillis(300), Duration.ofSeconds(20), this::idle);

        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(20));
        assertThat(runs.get(0).length()).isEqualTo(Duration.ofMillis(300));
        assertThat(runs.subList(1, runs.size()))
                .allSatisfy(run -> assertThat(run.length()).isEqualTo(JitSettling.SLICE));
        assertThat(runs).hasSizeGreaterThanOrEqualTo(JitSettling.QUIET_SLICES);
        assertThat(runs.subList(runs.size() - 2, runs.size())).allSatisfy(run -> assertThat(run.quiet()).isTrue());
        for (int i = 0; i < runs.size() - 2; i++) {
            assertThat(runs.get(i).quiet() && runs.get(i + 1).quiet())
                    .as("runs %d and %d were both quiet, so the warm-up should have ended there: %s", i, i + 1, runs)
                    .isFalse();
        }
    }

    @Test
    void withNoTimeToSettleOnlyTheWarmUpRuns() throws Exception {
        JitSettling.warmUp(Duration.ofMillis(50), Duration.ZERO, this::idle);
        assertThat(runs).extracting(Run::length).containsExactly(Duration.ofMillis(50));
    }

    /** Stands for a cell's load: the compilers have nothing new to compile meanwhile. */
    private void idle(Duration length) throws InterruptedException {
        long before = JitSettling.compilerMillis();
        Thread.sleep(length.toMillis());
        runs.add(new Run(length, JitSettling.compilerMillis() - before));
    }
}
