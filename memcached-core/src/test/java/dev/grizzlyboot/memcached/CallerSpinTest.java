package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * When a waiting caller spins and when it parks at once: the decisions of {@link CallerSpin} on
 * futures completed by another thread. {@link CallerSpinClientTest} checks the blocking facade's
 * use of it against a real server.
 */
class CallerSpinTest {

    private static final long LONG_WINDOW = TimeUnit.SECONDS.toNanos(30);
    private static final long SHORT_WINDOW = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aLoneCallerKeepsRunningUntilItsAnswerComes() throws Exception {
        CallerSpin spin = new CallerSpin(LONG_WINDOW);
        CompletableFuture<String> answer = new CompletableFuture<>();
        Thread caller = spinningCaller(spin, answer);

        // A parked caller would show WAITING or TIMED_WAITING; one that returned, TERMINATED.
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                .until(() -> caller.getState() == Thread.State.RUNNABLE && isSpinning(caller));
        answerAndJoin(answer, caller);
        assertThat(spin.skipping()).as("a spin that got its answer makes no call skip").isZero();
    }

    @Test
    void aCallerDoesNotSpinWhileAnotherWaits() throws Exception {
        CallerSpin spin = new CallerSpin(LONG_WINDOW);
        CompletableFuture<String> first = new CompletableFuture<>();
        Thread spinning = spinningCaller(spin, first);

        CompletableFuture<String> second = new CompletableFuture<>();
        long start = System.nanoTime();
        spin.enter(second, true);
        spin.leave();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("second caller's enter").isLessThan(Duration.ofSeconds(10));
        assertThat(spinning.isAlive()).as("the first caller still spins").isTrue();

        answerAndJoin(first, spinning);
    }

    @Test
    void aCallThatMayNotSpinReturnsAtOnceEvenAlone() {
        CallerSpin spin = new CallerSpin(LONG_WINDOW);
        long start = System.nanoTime();
        spin.enter(new CompletableFuture<>(), false);
        spin.leave();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(spin.skipping()).isZero();
    }

    @Test
    void eachMissDoublesHowManyCallsParkAtOnceUpToTheCapAndAHitEndsIt() {
        CallerSpin spin = new CallerSpin(SHORT_WINDOW);
        int expected = 1;
        for (int miss = 1; miss <= 12; miss++) {
            enterAndLeave(spin, new CompletableFuture<>());
            assertThat(spin.skipping()).as("calls skipped after miss %d", miss).isEqualTo(expected);
            for (int skipped = expected - 1; skipped >= 0; skipped--) {
                // A skipped call does not spin, so a future nobody completes costs it nothing.
                enterAndLeave(spin, new CompletableFuture<>());
                assertThat(spin.skipping()).isEqualTo(skipped);
            }
            expected = Math.min(expected * 2, CallerSpin.MAX_SKIPPED);
        }
        assertThat(expected).isEqualTo(CallerSpin.MAX_SKIPPED);

        enterAndLeave(spin, doneAfterPolls(10));
        enterAndLeave(spin, new CompletableFuture<>());
        assertThat(spin.skipping()).as("the first miss after a hit").isEqualTo(1);
    }

    @Test
    void aZeroWindowNeverSpins() {
        CallerSpin spin = new CallerSpin(0);
        enterAndLeave(spin, new CompletableFuture<>());
        assertThat(spin.skipping()).as("no spin, so no miss").isZero();
    }

    private static void enterAndLeave(CallerSpin spin, CompletableFuture<?> future) {
        spin.enter(future, true);
        spin.leave();
    }

    /**
     * A future that reads as done from its {@code polls}-th look on: a spin answered mid-way,
     * without timing (fewer looks than a spin takes between clock reads).
     */
    private static CompletableFuture<String> doneAfterPolls(int polls) {
        return new CompletableFuture<>() {
            private int looks;

            @Override
            public boolean isDone() {
                return ++looks >= polls || super.isDone();
            }
        };
    }

    private static boolean isSpinning(Thread thread) {
        for (StackTraceElement frame : thread.getStackTrace()) {
            if (frame.getClassName().equals(CallerSpin.class.getName()) && frame.getMethodName().equals("spin")) {
                return true;
            }
        }
        return false;
    }

    /** A thread that enters {@code spin} for {@code future}, once it is inside the spin. */
    private static Thread spinningCaller(CallerSpin spin, CompletableFuture<?> future) {
        Thread thread = new Thread(() -> {
            spin.enter(future, true);
            spin.leave();
        }, "spin-test-caller");
        thread.setDaemon(true);
        thread.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> isSpinning(thread));
        return thread;
    }

    private static void answerAndJoin(CompletableFuture<String> answer, Thread caller) throws InterruptedException {
        answer.complete("value");
        caller.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(caller.isAlive()).as("the caller returned once answered").isFalse();
    }
}
