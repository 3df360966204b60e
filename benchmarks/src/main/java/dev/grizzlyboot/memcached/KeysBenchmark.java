package dev.grizzlyboot.memcached;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Key validation and encoding ({@link Keys#encode}), which every request pays once per key. In
 * {@code Keys}' package because that class is package-private. Run by {@code benchmarks/run-jmh.sh}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class KeysBenchmark {

    /** The harness's key shape, and a longer one. */
    @Param({"grizzly-boot:123456", "session:7d0c1a2b-3e4f-5a6b-7c8d-9e0f1a2b3c4d:profile:settings"})
    public String key;

    @Benchmark
    public byte[] encode() {
        return Keys.encode(key);
    }
}
