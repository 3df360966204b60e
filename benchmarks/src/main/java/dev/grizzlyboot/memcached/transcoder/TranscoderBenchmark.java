package dev.grizzlyboot.memcached.transcoder;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The default transcoder on the benchmark's value type ({@code byte[]}, stored as is) and on
 * strings (UTF-8). Run by {@code benchmarks/run-jmh.sh}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class TranscoderBenchmark {

    @Param({"32", "512"})
    public int valueSize;

    private final DefaultTranscoder transcoder = DefaultTranscoder.create();
    private byte[] bytes;
    private String text;
    private CachedData storedBytes;
    private CachedData storedText;

    @Setup
    public void setUp() {
        bytes = new byte[valueSize];
        text = "x".repeat(valueSize);
        storedBytes = transcoder.encode(bytes);
        storedText = transcoder.encode(text);
    }

    @Benchmark
    public CachedData encodeBytes() {
        return transcoder.encode(bytes);
    }

    @Benchmark
    public Object decodeBytes() {
        return transcoder.decode(storedBytes);
    }

    @Benchmark
    public CachedData encodeString() {
        return transcoder.encode(text);
    }

    @Benchmark
    public Object decodeString() {
        return transcoder.decode(storedText);
    }
}
