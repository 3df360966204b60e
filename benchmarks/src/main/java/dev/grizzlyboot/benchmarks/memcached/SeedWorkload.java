package dev.grizzlyboot.benchmarks.memcached;

/**
 * The seed project's workload: store N keys, then delete them, from one caller thread. Looped
 * singles make one blocking {@code set}/{@code delete} per key; bulk sends batches through
 * {@link BenchClient#setMulti}/{@link BenchClient#deleteMulti} (for peers without bulk writes,
 * their nearest equivalent).
 */
final class SeedWorkload {
    /** Bytes per value. */
    static final int VALUE_SIZE = 128;

    /** One run: wall time for all sets plus all deletes, and client CPU per 100,000 keys. */
    record Result(double seconds, double opsPerSecond, double cpuSecondsPer100kOps) {
    }

    private SeedWorkload() {
    }

    static Result singles(BenchClient client, KeySpace keys) throws Exception {
        long cpuBefore = ProcessCpu.nanos();
        long began = System.nanoTime();
        for (int i = 0; i < keys.size(); i++) {
            client.set(keys.key(i), keys.value());
        }
        for (int i = 0; i < keys.size(); i++) {
            client.delete(keys.key(i));
        }
        return result(keys, began, cpuBefore);
    }

    static Result bulk(BenchClient client, KeySpace keys) throws Exception {
        long cpuBefore = ProcessCpu.nanos();
        long began = System.nanoTime();
        for (int b = 0; b < keys.batchCount(); b++) {
            client.setMulti(keys.entryBatch(b));
        }
        for (int b = 0; b < keys.batchCount(); b++) {
            client.deleteMulti(keys.keyBatch(b));
        }
        return result(keys, began, cpuBefore);
    }

    private static Result result(KeySpace keys, long began, long cpuBefore) {
        double seconds = (System.nanoTime() - began) / 1e9;
        long ops = 2L * keys.size();
        return new Result(seconds, ops / seconds, (ProcessCpu.nanos() - cpuBefore) / 1e9 / ops * 100_000);
    }
}
