package dev.grizzlyboot.memcached;

import java.util.UUID;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A bulk call's key index on its own: the 200 distinct keys of a getMulti added, then each looked
 * up once as a result map read does. {@code sequential} keys differ in their last digits, as the
 * harness's do; {@code uuid} keys are random. In the client's package to reach the index.
 */
@State(Scope.Benchmark)
public class KeyIndexBenchmark {

    private static final int KEYS = 200;

    @Param({"sequential", "uuid"})
    public String keys;

    private String[] names;

    @Setup
    public void keys() {
        names = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            names[i] = keys.equals("uuid") ? UUID.randomUUID().toString() : "grizzly-boot:" + (100_000 + i);
        }
    }

    @Benchmark
    public int addAndLookUp() {
        KeyIndex index = new KeyIndex(KEYS);
        for (String name : names) {
            index.add(name);
        }
        int sum = 0;
        for (String name : names) {
            sum += index.indexOf(name);
        }
        return sum;
    }
}
