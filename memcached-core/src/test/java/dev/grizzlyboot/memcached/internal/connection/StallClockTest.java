package dev.grizzlyboot.memcached.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** When the sweeper calls its own runs a stall, and for how long it says so. */
class StallClockTest {
    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long WINDOW = TimeUnit.MILLISECONDS.toNanos(1000);

    @Test
    void runsOnTimeOrALittleLateAreNoStall() {
        Sweeper.StallClock clock = new Sweeper.StallClock(TICK, WINDOW, 0);
        long now = 0;
        for (int run = 0; run < 100; run++) {
            now += TICK + TimeUnit.MILLISECONDS.toNanos(run % 2 == 0 ? 1 : 450);
            assertThat(clock.stalledAt(now)).as("run %d", run).isFalse();
            clock.ended(now);
        }
    }

    @Test
    void aRunMoreThanHalfTheWindowLateIsAStallForOneWindow() {
        long start = Long.MAX_VALUE - TimeUnit.SECONDS.toNanos(1);
        Sweeper.StallClock clock = new Sweeper.StallClock(TICK, WINDOW, start);
        long stalled = start + TICK + WINDOW / 2 + 1;
        assertThat(clock.stalledAt(stalled)).isTrue();
        clock.ended(stalled);

        long now = stalled;
        while (now + TICK - stalled <= WINDOW) {
            now += TICK;
            assertThat(clock.stalledAt(now)).as("%d ms after the stall", (now - stalled) / 1_000_000).isTrue();
            clock.ended(now);
        }
        now += TICK;
        assertThat(clock.stalledAt(now)).as("after the window").isFalse();
    }
}
