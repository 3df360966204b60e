package dev.grizzlyboot.memcached;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What every blocking call pays for {@link CallerSpin} when it does not spin: entering and leaving
 * with an answered future, which is the count of waiting callers going up and down. Run it with
 * {@code -t 2} as well, where both threads share the count as callers on two cores do (the cost
 * the 16–200-thread cells pay). A window of 0 is the client with spinning turned off. In
 * {@code CallerSpin}'s package because that class is package-private. Run by
 * {@code benchmarks/run-jmh.sh}, which sets the mode and iterations.
 */
@State(Scope.Benchmark)
public class CallerSpinBenchmark {

    private static final CompletableFuture<String> ANSWERED = CompletableFuture.completedFuture("value");

    /** The spin window in microseconds: 0 (off) or the default. */
    @Param({"0", "100"})
    public long windowMicros;

    private CallerSpin spin;

    @Setup
    public void setUp() {
        spin = new CallerSpin(TimeUnit.MICROSECONDS.toNanos(windowMicros));
    }

    @Benchmark
    public void enterAndLeave() {
        spin.enter(ANSWERED, true);
        spin.leave();
    }
}
