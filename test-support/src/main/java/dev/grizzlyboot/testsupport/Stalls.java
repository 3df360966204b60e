package dev.grizzlyboot.testsupport;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * This JVM's own stalls, measured: a daemon thread asks to wake every millisecond and records
 * each wake-up that comes more than {@value #THRESHOLD_MILLIS} ms late (a starved CPU on a busy
 * machine, a long safepoint). A call that ran over its deadline during such a stall was late
 * because the client did not run, not because of its server; the tests subtract these stalls
 * from a call's time before they hold it to a bound. Thread-safe.
 */
public final class Stalls implements AutoCloseable {

    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long THRESHOLD_MILLIS = 10;

    /** From when the meter should have woken up to when it did ({@link System#nanoTime()} clock). */
    private record Stall(long fromNanos, long toNanos) {
    }

    private final ConcurrentLinkedQueue<Stall> stalls = new ConcurrentLinkedQueue<>();
    private final Thread meter;
    /** When the meter last woke ({@link System#nanoTime()}): stalls before it are recorded. */
    private volatile long measuredThroughNanos = System.nanoTime();
    /** Wall-clock milliseconds minus {@link System#nanoTime()} in milliseconds, read once at the start. */
    private final long wallMinusMonotonicMillis;
    private volatile boolean running = true;

    /** Starts measuring; {@link #close} stops. */
    public Stalls() {
        wallMinusMonotonicMillis = System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
        meter = new Thread(this::measure, "stall-meter");
        meter.setDaemon(true);
        meter.start();
    }

    /**
     * How long this JVM was stalled between two {@link System#nanoTime()} readings.
     *
     * @param fromNanos the earlier reading
     * @param toNanos   the later reading
     * @return the stalled nanoseconds in that span; waits (up to a second) for the meter to wake
     *     after the span's end, as a stall it has not woken from yet is not recorded
     */
    public long stalledNanos(long fromNanos, long toNanos) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (running && measuredThroughNanos - toNanos < 0 && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(PERIOD_NANOS);
        }
        long total = 0;
        for (Stall stall : stalls) {
            long overlap = Math.min(stall.toNanos, toNanos) - Math.max(stall.fromNanos, fromNanos);
            if (overlap > 0) {
                total += overlap;
            }
        }
        return total;
    }

    /**
     * How long this JVM was stalled between two wall-clock times ({@link System#currentTimeMillis()}),
     * for bounds on times a component reports by the wall clock. The two clocks are related once,
     * when the meter starts; a step of the wall clock after that shifts the span.
     *
     * @param fromEpochMillis the earlier time
     * @param toEpochMillis   the later time
     * @return the stalled milliseconds in that span (waiting as {@link #stalledNanos} does)
     */
    public long stalledMillis(long fromEpochMillis, long toEpochMillis) {
        long fromNanos = TimeUnit.MILLISECONDS.toNanos(fromEpochMillis - wallMinusMonotonicMillis);
        long toNanos = TimeUnit.MILLISECONDS.toNanos(toEpochMillis - wallMinusMonotonicMillis);
        return TimeUnit.NANOSECONDS.toMillis(stalledNanos(fromNanos, toNanos));
    }

    /**
     * How long this JVM was stalled in all since the meter started.
     *
     * @return the stalled nanoseconds
     */
    public long totalStalledNanos() {
        return stalls.stream().mapToLong(stall -> stall.toNanos - stall.fromNanos).sum();
    }

    private void measure() {
        long threshold = TimeUnit.MILLISECONDS.toNanos(THRESHOLD_MILLIS);
        long last = System.nanoTime();
        while (running) {
            LockSupport.parkNanos(PERIOD_NANOS);
            long now = System.nanoTime();
            long due = last + PERIOD_NANOS;
            if (now - due > threshold) {
                stalls.add(new Stall(due, now));
            }
            measuredThroughNanos = now;
            last = now;
        }
    }

    /** Stops the meter thread. */
    @Override
    public void close() {
        running = false;
    }
}
