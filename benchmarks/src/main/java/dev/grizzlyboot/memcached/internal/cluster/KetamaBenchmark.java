package dev.grizzlyboot.memcached.internal.cluster;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Finding a key's server on the Ketama ring ({@link KetamaRing#locate(byte[])}): an MD5 of the
 * key's UTF-8 bytes (as {@code Keys.encode} made them)
 * and a binary search over 160 points per server; one server skips both. {@link #md5()} is the
 * ring's own key hash alone, to tell the hash's share from the search's. Run by
 * {@code benchmarks/run-jmh.sh}, which sets the mode and iterations.
 */
@State(Scope.Thread)
public class KetamaBenchmark {

    @Param({"1", "3", "25"})
    public int servers;

    private KetamaRing<String> ring;
    private final byte[][] keys = new byte[1024][];
    private int next;
    private final KetamaRing.KeyDigest digest = new KetamaRing.KeyDigest();

    @Setup
    public void setUp() {
        List<String> names = IntStream.range(0, servers).mapToObj(i -> "127.0.0.1:" + (11211 + i)).toList();
        ring = KetamaRing.of(names, names);
        for (int i = 0; i < keys.length; i++) {
            keys[i] = ("grizzly-boot:" + (100_000 + i * 7)).getBytes(StandardCharsets.UTF_8);
        }
    }

    @Benchmark
    public String locate() {
        next = (next + 1) & (keys.length - 1);
        return ring.locate(keys[next]);
    }

    @Benchmark
    public long md5() {
        next = (next + 1) & (keys.length - 1);
        return digest.point(keys[next]);
    }
}
