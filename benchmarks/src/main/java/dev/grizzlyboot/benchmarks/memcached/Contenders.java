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
            for (Opener opener : openers(options)) {
                contenders.add(opener.open(target, "c" + contenders.size()));
            }
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** Opens one contender against a target; {@code prefix} keeps its keys apart from the others'. */
    @FunctionalInterface
    interface Opener {
        Contender open(ClientTarget target, String prefix) throws Exception;
    }

    /**
     * How to open each selected client, in table order: ours (defaults, then tuned variants), the
     * peers on our classpath, then the original grizzly-memcached in its own JVM.
     */
    static List<Opener> openers(BenchOptions options) {
        List<Opener> openers = new ArrayList<>();
        for (ClientFactory factory : inProcessFactories(options)) {
            openers.add((target, prefix) -> new InProcessContender(factory.open(target), prefix));
        }
        if (options.wantsClient(ORIGINAL) && options.originalClasspath() != null) {
            openers.add((target, prefix) -> new ChildProcessContender(options.originalClasspath(), ORIGINAL_MAIN, prefix, target));
        }
        return openers;
    }

    private static List<ClientFactory> inProcessFactories(BenchOptions options) {
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
