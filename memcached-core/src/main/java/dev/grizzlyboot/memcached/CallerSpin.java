package dev.grizzlyboot.memcached;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lets a blocking caller that is the only one waiting on its client spin for a short window
 * before it parks. A parked caller costs a sleep and a wake-up on two threads per call (the I/O
 * thread's {@code unpark}, the scheduler waking the caller); on a fast network the answer often
 * comes within tens of microseconds, and a caller still running takes it at once. With more than
 * one caller waiting, the cores are better left to the others, so only a lone caller spins.
 *
 * <p>A spin that ends without the answer makes the following calls park at once: twice as many
 * after each further miss (up to {@value #MAX_SKIPPED} calls), none after a hit. A slow or distant
 * server thus costs one window of spinning per thousand calls. Threading: any thread; the backoff
 * is kept without locks, so concurrent misses may lose an update, which only moves the next try.
 */
final class CallerSpin {

    static final int MAX_SKIPPED = 1024;
    /** Reading the clock on every turn would cost more than the turn. */
    private static final int TURNS_PER_CLOCK_READ = 32;

    private final long windowNanos;
    private final AtomicInteger waiting = new AtomicInteger();
    /** Calls that park at once before the next spin is tried. */
    private volatile int skipping;
    /** How many calls the next miss makes park at once. */
    private volatile int nextSkip = 1;

    CallerSpin(long windowNanos) {
        this.windowNanos = windowNanos;
    }

    /**
     * Marks the calling thread as waiting for {@code future} and, if {@code maySpin}, spins for it
     * while no other caller is waiting and the backoff allows. Every call must be matched by
     * {@link #leave()}.
     */
    void enter(CompletableFuture<?> future, boolean maySpin) {
        if (windowNanos == 0) {
            return;
        }
        if (waiting.incrementAndGet() != 1 || !maySpin || future.isDone()) {
            return;
        }
        int skip = skipping;
        if (skip > 0) {
            skipping = skip - 1;
            return;
        }
        if (spin(future)) {
            nextSkip = 1;
        } else {
            int skipped = nextSkip;
            skipping = skipped;
            nextSkip = Math.min(skipped * 2, MAX_SKIPPED);
        }
    }

    /** Ends what {@link #enter} began, once the caller has its answer or gave up. */
    void leave() {
        if (windowNanos != 0) {
            waiting.decrementAndGet();
        }
    }

    /** Calls that will park at once before the next spin is tried (for tests). */
    int skipping() {
        return skipping;
    }

    private boolean spin(CompletableFuture<?> future) {
        long deadline = System.nanoTime() + windowNanos;
        for (int turn = 1; !future.isDone(); turn++) {
            Thread.onSpinWait();
            if (turn % TURNS_PER_CLOCK_READ == 0 && System.nanoTime() - deadline > 0) {
                return future.isDone();
            }
        }
        return true;
    }
}
