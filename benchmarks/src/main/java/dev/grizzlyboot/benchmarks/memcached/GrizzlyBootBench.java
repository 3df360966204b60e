package dev.grizzlyboot.benchmarks.memcached;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;

import dev.grizzlyboot.memcached.BlockingMemcachedClient;
import dev.grizzlyboot.memcached.BulkResult;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.MemcachedClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** Our client through its blocking facade; bulk writes are real {@code setMulti}/{@code deleteMulti}. */
final class GrizzlyBootBench implements BenchClient {

    /** The label of {@link #plaintextReference}: not ours, so the tables compare TLS against it. */
    static final String TLS_REFERENCE = "plaintext (same client)";

    /** A cold JVM's first TLS handshake can take over the default second on a loaded machine. */
    private static final Duration TLS_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final String label;
    private final MemcachedClient client;
    private final BlockingMemcachedClient blocking;

    private GrizzlyBootBench(String label, MemcachedClient client) {
        this.label = label;
        this.client = client;
        this.blocking = client.blocking();
    }

    /** Our client with every builder default (its ring is always Ketama). */
    static GrizzlyBootBench defaults(ClientTarget target) {
        return new GrizzlyBootBench("grizzly-boot", builder(target).build());
    }

    /**
     * Our client with every builder default, labelled as one of the builds an A/B run compares
     * ({@code --builds}); which build it is depends on the class path of the JVM it runs in.
     */
    static GrizzlyBootBench build(ClientTarget target, String name) {
        return new GrizzlyBootBench(Contenders.OURS + " build " + name, builder(target).build());
    }

    /** Our client with every builder default, over TLS (it is the one compared in the TLS scenario). */
    static GrizzlyBootBench overTls(ClientTarget target, SSLContext context) {
        return new GrizzlyBootBench(Contenders.OURS, builder(target).connectTimeout(TLS_CONNECT_TIMEOUT).tls(context).build());
    }

    /** Our client with every builder default, in plaintext, as the TLS scenario's reference. */
    static GrizzlyBootBench plaintextReference(ClientTarget target) {
        return new GrizzlyBootBench(TLS_REFERENCE, builder(target).connectTimeout(TLS_CONNECT_TIMEOUT).build());
    }

    /** Our client with the given knobs, labelled as a tuned variant. */
    static GrizzlyBootBench tuned(ClientTarget target, Knobs knobs) {
        MemcachedClientBuilder builder = builder(target)
                .connectionsPerServer(knobs.minConnections(), knobs.maxConnections())
                .pipelineDepth(knobs.pipelineDepth())
                .ioThreads(knobs.ioThreads());
        if (knobs.metrics()) {
            builder.meterRegistry(new SimpleMeterRegistry());
        }
        return new GrizzlyBootBench("grizzly-boot tuned " + knobs, builder.build());
    }

    private static MemcachedClientBuilder builder(ClientTarget target) {
        MemcachedClientBuilder builder = MemcachedClient.builder().servers(target.servers());
        target.operationTimeout().ifPresent(builder::operationTimeout);
        return builder;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public byte[] get(String key) {
        return (byte[]) blocking.get(key);
    }

    @Override
    public void set(String key, byte[] value) {
        blocking.set(key, value, Expiry.TTL);
    }

    @Override
    public void delete(String key) {
        blocking.delete(key);
    }

    @Override
    public int getMulti(List<String> keys) {
        return blocking.getMulti(keys).values().size();
    }

    @Override
    public void setMulti(Map<String, byte[]> values) {
        failOnErrors(blocking.setMulti(values, Expiry.TTL));
    }

    @Override
    public void deleteMulti(List<String> keys) {
        failOnErrors(blocking.deleteMulti(keys));
    }

    @Override
    public String bulkWriteNote() {
        return "setMulti/deleteMulti (quiet opcodes + NOOP)";
    }

    @Override
    public void close() {
        client.close();
    }

    private static void failOnErrors(BulkResult<Object> result) {
        if (!result.errors().isEmpty()) {
            throw result.errors().values().iterator().next();
        }
    }

    /**
     * The builder knobs a tuned variant sets: {@code connectionsPerServer(minConnections, maxConnections)},
     * {@code pipelineDepth}, {@code ioThreads}, and whether its meters go to a Micrometer
     * {@code SimpleMeterRegistry}. Written and parsed as {@code c4/d32/io2}, with {@code /m2} for
     * connections opened at start-up (1 when absent) and {@code /metrics} for the meters.
     */
    record Knobs(int minConnections, int maxConnections, int pipelineDepth, int ioThreads, boolean metrics) {

        static Knobs parse(String text) {
            int minConnections = 1;
            int connections = 4;
            int depth = 32;
            int io = 2;
            boolean metrics = false;
            for (String part : text.split("/")) {
                if (part.equals("metrics")) {
                    metrics = true;
                } else if (part.startsWith("io")) {
                    io = Integer.parseInt(part.substring(2));
                } else if (part.startsWith("c")) {
                    connections = Integer.parseInt(part.substring(1));
                } else if (part.startsWith("m")) {
                    minConnections = Integer.parseInt(part.substring(1));
                } else if (part.startsWith("d")) {
                    depth = Integer.parseInt(part.substring(1));
                } else {
                    throw new IllegalArgumentException("expected knobs like c4/d32/io2, got " + text);
                }
            }
            return new Knobs(minConnections, connections, depth, io, metrics);
        }

        @Override
        public String toString() {
            return "c" + maxConnections + "/d" + pipelineDepth + "/io" + ioThreads + (minConnections == 1 ? "" : "/m" + minConnections)
                    + (metrics ? "/metrics" : "");
        }
    }
}
