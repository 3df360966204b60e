package dev.grizzlyboot.benchmarks.thrift;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import dev.grizzlyboot.benchmarks.jit.JitSettling;
import dev.grizzlyboot.thrift.tutorial.Calculator;

/**
 * One closed-loop round: every caller runs on its own thread and sends the next {@code echo} as
 * soon as the previous reply arrives, for a fixed time. Latencies of every call are kept, so
 * percentiles are exact for the round. CPU time is the whole process's (callers, client and
 * server threads, JIT, GC) over the round, divided by the calls made; caller CPU is the calling
 * threads' own (for a blocking client, nearly all of the client's work), divided by the same calls.
 * Compile time is the CPU the JIT compiler threads used during the round: more than a few
 * milliseconds means the round measured code still being compiled.
 */
final class LoadRound {

    /** What one round measured. */
    record Result(double requestsPerSecond, double p50Micros, double p99Micros, double cpuMicrosPerCall,
                  double callerCpuMicrosPerCall, long errors, long compileMillis) {
    }

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private LoadRound() {
    }

    static Result run(List<Calculator.Iface> callers, byte[] payload, Duration length) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicLong errors = new AtomicLong();
        AtomicLong callerCpu = new AtomicLong();
        List<long[]> latencies = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long[] window = new long[2];
        for (Calculator.Iface caller : callers) {
            long[][] own = {new long[1 << 14]};
            int[] count = {0};
            Thread thread = new Thread(() -> {
                ByteBuffer request = ByteBuffer.wrap(payload);
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                long deadline = window[1];
                long cpuAtStart = THREADS.getCurrentThreadCpuTime();
                while (true) {
                    long begin = System.nanoTime();
                    if (begin >= deadline) {
                        break;
                    }
                    try {
                        caller.echo(request.duplicate());
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        continue;
                    }
                    if (count[0] == own[0].length) {
                        own[0] = Arrays.copyOf(own[0], own[0].length * 2);
                    }
                    own[0][count[0]++] = System.nanoTime() - begin;
                }
                callerCpu.addAndGet(THREADS.getCurrentThreadCpuTime() - cpuAtStart);
                synchronized (latencies) {
                    latencies.add(Arrays.copyOf(own[0], count[0]));
                }
            }, "bench-caller");
            threads.add(thread);
            thread.start();
        }
        long cpuBefore = OS.getProcessCpuTime();
        long compiledBefore = JitSettling.compilerMillis();
        window[0] = System.nanoTime();
        window[1] = window[0] + length.toNanos();
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        long cpu = OS.getProcessCpuTime() - cpuBefore;
        long compiled = JitSettling.compilerMillis() - compiledBefore;
        long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        double seconds = length.toNanos() / 1e9;
        return new Result(all.length / seconds, percentile(all, 0.50), percentile(all, 0.99),
                all.length == 0 ? Double.NaN : cpu / 1000.0 / all.length,
                all.length == 0 ? Double.NaN : callerCpu.get() / 1000.0 / all.length, errors.get(), compiled);
    }

    private static double percentile(long[] sorted, double fraction) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] / 1000.0;
    }
}
