package dev.grizzlyboot.benchmarks.memcached;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.grizzlyboot.benchmarks.jit.JitSettling;
import org.HdrHistogram.Histogram;

/**
 * One closed-loop round: N caller threads each make the next call as soon as the previous one
 * returns, for a fixed time. Every call's latency goes into a histogram; process CPU time, the
 * memcached processes' CPU time and the machine's busy share are taken across the round. The
 * caller threads are pooled: one round's callers run the next round's calls.
 */
final class LoadRound {

    /**
     * What one round measured. Throughput is in calls and in keys (they differ for bulk calls);
     * CPU is client CPU seconds per 100,000 keys, server CPU the same for memcached (NaN if unknown),
     * machine busy the share of all cores that was busy (0 to 1, NaN if unknown), compile the CPU
     * milliseconds this JVM's JIT compiler threads used during the round.
     */
    record Result(double callsPerSecond, double keysPerSecond, double p50Micros, double p99Micros,
                  double cpuSecondsPer100kKeys, double serverCpuSecondsPer100kKeys, double machineBusy,
                  long errors, long misses, String firstError, long compileMillis) {
    }

    /**
     * The caller threads, kept between rounds (idle ones wait in the pool): starting 200 new ones
     * for every warm-up and round took 25-35 ms each time, a turn of 0.05 s warm-up and 0.2 s
     * round 0.37 s instead of 0.30 s.
     */
    private static final ExecutorService CALLERS = Executors.newCachedThreadPool(new ThreadFactory() {
        private final AtomicInteger created = new AtomicInteger();

        @Override
        public Thread newThread(Runnable caller) {
            Thread thread = new Thread(caller, "bench-caller-" + created.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        }
    });

    private LoadRound() {
    }

    static Result run(BenchClient client, Workload workload, KeySpace keys, int threads, Duration length)
            throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        AtomicLong errors = new AtomicLong();
        AtomicLong misses = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        Histogram all = new Histogram(2);
        long[] deadline = new long[1];
        for (int t = 0; t < threads; t++) {
            CALLERS.execute(() -> {
                Histogram own = new Histogram(2);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                long missed = 0;
                ready.countDown();
                try {
                    start.await();
                    long end = deadline[0];
                    for (long begin = System.nanoTime(); begin < end; begin = System.nanoTime()) {
                        try {
                            missed += workload.call(client, keys, random);
                            own.recordValue(System.nanoTime() - begin);
                        } catch (Exception e) {
                            errors.incrementAndGet();
                            firstError.compareAndSet(null, e.toString());
                        }
                    }
                    misses.addAndGet(missed);
                    synchronized (all) {
                        all.add(own);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            });
        }
        ready.await();
        long serverBefore = ServerCpu.serverNanos();
        long[] machineBefore = ServerCpu.machineTicks();
        long cpuBefore = ProcessCpu.nanos();
        long compiledBefore = JitSettling.compilerMillis();
        long began = System.nanoTime();
        deadline[0] = began + length.toNanos();
        start.countDown();
        done.await();
        double seconds = (System.nanoTime() - began) / 1e9;
        long cpu = ProcessCpu.nanos() - cpuBefore;
        long serverAfter = ServerCpu.serverNanos();
        double machineBusy = ServerCpu.busyShare(machineBefore, ServerCpu.machineTicks());
        long calls = all.getTotalCount();
        long keyCount = calls * workload.keysPerCall;
        long serverCpu = serverBefore < 0 || serverAfter < 0 ? -1 : serverAfter - serverBefore;
        return new Result(calls / seconds, keyCount / seconds,
                all.getValueAtPercentile(50) / 1000.0, all.getValueAtPercentile(99) / 1000.0,
                per100k(cpu, keyCount), serverCpu < 0 ? Double.NaN : per100k(serverCpu, keyCount), machineBusy,
                errors.get(), misses.get(), firstError.get(), JitSettling.compilerMillis() - compiledBefore);
    }

    private static double per100k(long nanos, long keyCount) {
        return keyCount == 0 ? Double.NaN : nanos / 1e9 / keyCount * 100_000;
    }
}
