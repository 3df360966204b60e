package dev.grizzlyboot.benchmarks.memcached;

import java.lang.management.ManagementFactory;

/**
 * CPU time of this JVM process (all threads: callers, client I/O, JIT, GC). memcached runs in
 * another process, so this is the client side's cost alone.
 */
final class ProcessCpu {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private ProcessCpu() {
    }

    static long nanos() {
        return OS.getProcessCpuTime();
    }
}
