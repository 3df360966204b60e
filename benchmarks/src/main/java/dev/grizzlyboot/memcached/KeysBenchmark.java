package dev.grizzlyboot.memcached;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Key validation and encoding ({@link Keys#encode}), which every request pays once per key. In
 * {@code Keys}' package because that class is package-private.
 * Run by {@code benchmarks/run-jmh.sh}, which sets the mode and iterations.
 */
@State(Scope.Thread)
public class KeysBenchmark {

    /** The harness's key shape, and a longer one. */
    @Param({"grizzly-boot:123456", "session:7d0c1a2b-3e4f-5a6b-7c8d-9e0f1a2b3c4d:profile:settings"})
    public String key;

    @Benchmark
    public byte[] encode() {
        return Keys.encode(key);
    }
}
