package dev.grizzlyboot.benchmarks.memcached;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The measured operations. Each call picks a random key (or a random batch of consecutive keys)
 * from the client's own, pre-populated {@link KeySpace}, so gets are hits.
 */
enum Workload {

    GET("get", 1) {
        @Override
        int call(BenchClient client, KeySpace keys, ThreadLocalRandom random) throws Exception {
            return client.get(keys.key(random.nextInt(keys.size()))) == null ? 1 : 0;
        }
    },
    SET("set", 1) {
        @Override
        int call(BenchClient client, KeySpace keys, ThreadLocalRandom random) throws Exception {
            client.set(keys.key(random.nextInt(keys.size())), keys.value());
            return 0;
        }
    },
    GET_MULTI("getMulti", KeyCounts.BATCH) {
        @Override
        int call(BenchClient client, KeySpace keys, ThreadLocalRandom random) throws Exception {
            return KeyCounts.BATCH - client.getMulti(keys.keyBatch(random.nextInt(keys.batchCount())));
        }
    },
    SET_MULTI("setMulti", KeyCounts.BATCH) {
        @Override
        int call(BenchClient client, KeySpace keys, ThreadLocalRandom random) throws Exception {
            client.setMulti(keys.entryBatch(random.nextInt(keys.batchCount())));
            return 0;
        }
    };

    final String label;
    final int keysPerCall;

    Workload(String label, int keysPerCall) {
        this.label = label;
        this.keysPerCall = keysPerCall;
    }

    /** Makes one call; returns how many keys missed (for gets), which should always be 0. */
    abstract int call(BenchClient client, KeySpace keys, ThreadLocalRandom random) throws Exception;

    /** Key counts shared by the workloads and the key spaces. */
    static final class KeyCounts {
        static final int BATCH = 200;
        static final int PER_SPACE = 10_000;

        private KeyCounts() {
        }
    }
}
