package dev.grizzlyboot.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One blocking {@code getMulti} of 200 stored keys, the harness's bulk read, end to end against
 * real memcached (one or three servers, started here): building the call, encoding, decoding the
 * replies on the I/O thread and the result, read as the harness reads it ({@code values().size()}).
 * With {@code -prof gc} the allocation per call counts every thread of the JVM, so it includes
 * the I/O thread's decoding; the time per call also includes memcached's. In the client's package
 * to sit next to the other micro-benchmarks of its pieces.
 * Run by {@code benchmarks/run-jmh.sh}, which sets the mode and iterations.
 */
@State(Scope.Benchmark)
public class GetMultiBenchmark {

    private static final int KEYS = 200;

    @Param({"1", "3"})
    public int servers;

    @Param({"32", "512"})
    public int valueSize;

    private final List<MemcachedProcess> processes = new ArrayList<>();
    private MemcachedClient client;
    private BlockingMemcachedClient blocking;
    private List<String> keys;

    @Setup(Level.Trial)
    public void start() {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            MemcachedProcess process = MemcachedProcess.start(MemcachedOptions.defaults().withThreads(2).withMemoryMegabytes(512));
            processes.add(process);
            addresses.add(process.address());
        }
        // A long timeout: on a loaded machine a late answer must not turn into a miss.
        client = MemcachedClient.builder().servers(addresses).operationTimeout(Duration.ofSeconds(30)).build();
        blocking = client.blocking();
        keys = new ArrayList<>();
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < KEYS; i++) {
            String key = "grizzly-boot:" + (100_000 + i);
            keys.add(key);
            values.put(key, new byte[valueSize]);
        }
        if (!blocking.setMulti(values, Duration.ZERO).errors().isEmpty()) {
            throw new IllegalStateException("could not store the keys");
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        client.close();
        processes.forEach(MemcachedProcess::close);
    }

    @Benchmark
    public int getMulti() {
        int found = blocking.getMulti(keys).values().size();
        if (found != KEYS) {
            throw new IllegalStateException(found + " of " + KEYS + " keys found");
        }
        return found;
    }
}
