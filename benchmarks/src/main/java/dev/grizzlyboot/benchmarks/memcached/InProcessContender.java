package dev.grizzlyboot.benchmarks.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.benchmarks.jit.JitSettling;

/**
 * A {@link BenchClient} in the current JVM with its key spaces (one per value size, named by a
 * prefix that no other contender uses). Also what a child JVM runs on the other end of
 * {@link ContenderProtocol}.
 */
final class InProcessContender implements Contender {

    private final BenchClient client;
    private final String prefix;
    private final Map<Integer, KeySpace> spaces = new HashMap<>();

    InProcessContender(BenchClient client, String prefix) {
        this.client = client;
        this.prefix = prefix;
    }

    @Override
    public String label() {
        return client.label();
    }

    @Override
    public String bulkWriteNote() {
        return client.bulkWriteNote();
    }

    @Override
    public void populate(int[] sizes) throws Exception {
        for (int size : sizes) {
            KeySpace keys = new KeySpace(prefix, Workload.KeyCounts.PER_SPACE, size, Workload.KeyCounts.BATCH);
            for (int b = 0; b < keys.batchCount(); b++) {
                client.setMulti(keys.entryBatch(b));
            }
            spaces.put(size, keys);
        }
    }

    @Override
    public void warmUp(int size, Duration length) throws InterruptedException {
        for (Workload workload : Workload.values()) {
            LoadRound.run(client, workload, keys(size), 16, length);
        }
    }

    @Override
    public List<LoadRound.Result> cell(Workload workload, int size, int threads, Duration warmup,
                                       Duration jitSettle, int rounds, Duration round) throws Exception {
        JitSettling.warmUp(warmup, jitSettle, length -> LoadRound.run(client, workload, keys(size), threads, length));
        List<LoadRound.Result> results = new ArrayList<>(rounds);
        for (int i = 0; i < rounds; i++) {
            results.add(LoadRound.run(client, workload, keys(size), threads, round));
        }
        return results;
    }

    @Override
    public SeedRuns seed(int keyCount, int batch, int singlesRounds, int bulkRounds) throws Exception {
        KeySpace keys = new KeySpace("seed-" + prefix, keyCount, SeedWorkload.VALUE_SIZE, batch);
        List<SeedWorkload.Result> singles = new ArrayList<>();
        List<SeedWorkload.Result> bulk = new ArrayList<>();
        for (int i = 0; i < singlesRounds; i++) {
            singles.add(SeedWorkload.singles(client, keys));
        }
        for (int i = 0; i < bulkRounds; i++) {
            bulk.add(SeedWorkload.bulk(client, keys));
        }
        return new SeedRuns(singles, bulk);
    }

    @Override
    public FailoverLoad.Running failoverLoad(int size, Duration length) {
        return FailoverLoad.start(client, keys(size), length);
    }

    @Override
    public void close() throws Exception {
        client.close();
    }

    private KeySpace keys(int size) {
        KeySpace keys = spaces.get(size);
        if (keys == null) {
            throw new IllegalStateException(label() + " has no populated key space for " + size + " B values");
        }
        return keys;
    }
}
