package dev.grizzlyboot.memcached.transcoder;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The default transcoder on the benchmark's value type ({@code byte[]}, stored as is) and on
 * strings (UTF-8). Run by {@code benchmarks/run-jmh.sh}, which sets the mode and iterations.
 */
@State(Scope.Thread)
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
