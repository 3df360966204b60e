package dev.grizzlyboot.benchmarks.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.grizzlyboot.testsupport.MemcachedProcess;

/** memcached's CPU time and the machine's busy share, read from {@code /proc} of a real memcached. */
class ServerCpuTest {

    @AfterEach
    void forget() {
        System.clearProperty(ServerCpu.PIDS_PROPERTY);
    }

    @Test
    void serverCpuGrowsWithTheWorkTheWatchedMemcachedDoes() {
        try (MemcachedProcess memcached = MemcachedProcess.start()) {
            ServerCpu.watch(List.of(memcached));
            long before = ServerCpu.serverNanos();
            for (int i = 0; i < 300; i++) {
                assertThat(memcached.stats()).containsKey("pid");
            }
            long after = ServerCpu.serverNanos();

            assertThat(before).isPositive();
            assertThat(after).isGreaterThan(before);
            assertThat(ServerCpu.childJvmOptions())
                    .containsExactly("-D" + ServerCpu.PIDS_PROPERTY + "=" + memcached.pid());
        }
    }

    @Test
    void nothingWatchedOrGoneIsUnknownRatherThanZero() {
        assertThat(ServerCpu.serverNanos()).isEqualTo(-1);
        assertThat(ServerCpu.childJvmOptions()).isEmpty();
        MemcachedProcess gone = MemcachedProcess.start();
        ServerCpu.watch(List.of(gone));
        gone.close();

        assertThat(ServerCpu.serverNanos()).isEqualTo(-1);
    }

    @Test
    void busyShareIsBetweenZeroAndOneWhileThisThreadSpins() {
        long[] before = ServerCpu.machineTicks();
        long end = System.nanoTime() + 300_000_000L;
        long spins = 0;
        while (System.nanoTime() < end) {
            spins++;
        }
        double busy = ServerCpu.busyShare(before, ServerCpu.machineTicks());

        assertThat(spins).isPositive();
        assertThat(busy).isBetween(1.0 / Runtime.getRuntime().availableProcessors() * 0.5, 1.0);
        assertThat(ServerCpu.busyShare(null, before)).isNaN();
    }
}
