package dev.grizzlyboot.benchmarks.memcached;

import java.util.ArrayList;
import java.util.List;

/**
 * Opens the contenders of one scenario against its servers: ours with its defaults, any tuned
 * variants of ours, the in-process peers and, when its classpath is given, the original
 * grizzly-memcached in a child JVM. All stay open for the whole scenario.
 */
final class Contenders implements AutoCloseable {

    static final String OURS = "grizzly-boot";
    /** Selects the original grizzly-memcached in {@code --clients}. */
    static final String ORIGINAL = "grizzly-memcached";
    private static final String ORIGINAL_MAIN = "dev.grizzlyboot.benchmarks.memcached.GrizzlyMemcachedOriginalMain";

    private final List<Contender> contenders = new ArrayList<>();

    Contenders(ClientTarget target, BenchOptions options) throws Exception {
        try {
            for (ClientFactory factory : inProcessFactories(options)) {
                contenders.add(new InProcessContender(factory.open(target), "c" + contenders.size()));
            }
            if (wantsOriginal(options)) {
                contenders.add(original(target, options, "c" + contenders.size()));
            }
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /**
     * How to open each selected client that shares our classpath: ours (defaults, then tuned
     * variants), then the peers.
     */
    static List<ClientFactory> inProcessFactories(BenchOptions options) {
        List<ClientFactory> factories = new ArrayList<>();
        if (options.wantsClient(OURS)) {
            factories.add(GrizzlyBootBench::defaults);
            for (GrizzlyBootBench.Knobs knobs : options.tuned()) {
                factories.add(target -> GrizzlyBootBench.tuned(target, knobs));
            }
        }
        if (options.wantsClient("spymemcached")) {
            factories.add(SpyBench::new);
        }
        if (options.wantsClient("xmemcached")) {
            factories.add(XmemcachedBench::new);
        }
        if (options.wantsClient("folsom")) {
            factories.add(FolsomBench::new);
        }
        return factories;
    }

    static boolean wantsOriginal(BenchOptions options) {
        return options.wantsClient(ORIGINAL) && options.originalClasspath() != null;
    }

    /** Starts the child JVM of the original grizzly-memcached against the target. */
    static Contender original(ClientTarget target, BenchOptions options, String prefix) throws Exception {
        return new ChildProcessContender(options.originalClasspath(), ORIGINAL_MAIN, prefix, target);
    }

    List<Contender> all() {
        return contenders;
    }

    static boolean isOurs(String label) {
        return label.startsWith(OURS);
    }

    /** Opens one client against a target. */
    @FunctionalInterface
    interface ClientFactory {
        BenchClient open(ClientTarget target) throws Exception;
    }

    @Override
    public void close() throws Exception {
        for (Contender contender : contenders) {
            contender.close();
        }
    }
}
