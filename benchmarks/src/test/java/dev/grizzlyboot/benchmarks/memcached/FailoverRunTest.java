package dev.grizzlyboot.benchmarks.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** How a failover run's buckets turn into the reported totals and recovery time (100 ms buckets). */
class FailoverRunTest {

    private static final Duration KILL = Duration.ofMillis(200);
    private static final Duration RESTART = Duration.ofMillis(600);

    @Test
    void errorsStopAtTheEndOfTheLastBucketWithErrorsBeforeTheRestart() {
        FailoverRun.Result result = result(0, 0, 4, 9, 0, 0, 3, 0);

        assertThat(result.errorsStopAfterKill()).isEqualTo(Duration.ofMillis(200));
        assertThat(result.total(result.trace().errors(), KILL, RESTART)).isEqualTo(13);
        assertThat(result.total(result.trace().errors(), RESTART, Duration.ofMillis(800))).isEqualTo(3);
    }

    @Test
    void errorsUntilTheRestartMeanTheyNeverStopped() {
        assertThat(result(0, 0, 4, 9, 1, 2, 0, 0).errorsStopAfterKill()).isNull();
    }

    @Test
    void noErrorsAfterTheKillIsZeroRecovery() {
        assertThat(result(7, 0, 0, 0, 0, 0, 5, 0).errorsStopAfterKill()).isEqualTo(Duration.ZERO);
    }

    private static FailoverRun.Result result(long... errorsPerBucket) {
        long[] calls = new long[errorsPerBucket.length];
        return new FailoverRun.Result("client", new FailoverLoad.Trace(calls, errorsPerBucket, calls, 0, 0, null),
                KILL, RESTART, null);
    }
}
