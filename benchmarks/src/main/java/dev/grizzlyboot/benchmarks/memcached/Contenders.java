package dev.grizzlyboot.benchmarks.memcached;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Opens the contenders of one scenario against its servers: ours with its defaults, any tuned
 * variants of ours, the in-process peers and, when its classpath is given, the original
 * grizzly-memcached in a child JVM, and any builds of ours an A/B run compares, each in a child
 * JVM whose class path has that build in place of ours. All stay open for the whole scenario.
 */
final class Contenders implements AutoCloseable {

    static final String OURS = "grizzly-boot";
    /** Selects the original grizzly-memcached in {@code --clients}. */
    static final String ORIGINAL = "grizzly-memcached";
    private static final String ORIGINAL_MAIN = "dev.grizzlyboot.benchmarks.memcached.GrizzlyMemcachedOriginalMain";
    private static final String OWN_JVM_MAIN = "dev.grizzlyboot.benchmarks.memcached.OwnJvmClientMain";
    private static final String TUNED = "tuned:";
    private static final String BUILD = "build:";
    /** Our library on the harness's class path: a jar from the local repository or the module's classes. */
    private static final Pattern OUR_LIBRARY = Pattern.compile("(grizzlyboot-memcached-\\d[^/]*\\.jar|memcached-core/target/classes/?)$");

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
     * peers on our classpath, the original grizzly-memcached in its own JVM, then the builds of
     * {@code --builds}, a JVM each. With {@code --jvm-per-client=true} the clients on our classpath
     * get a JVM each too.
     */
    static List<Opener> openers(BenchOptions options) {
        List<Opener> openers = new ArrayList<>();
        for (String client : clientsOnOurClasspath(options)) {
            if (options.jvmPerClient()) {
                openers.add((target, prefix) -> new ChildProcessContender(System.getProperty("java.class.path"),
                        OWN_JVM_MAIN, List.of(client), prefix, target));
            } else {
                openers.add((target, prefix) -> new InProcessContender(factoryFor(client).open(target), prefix));
            }
        }
        if (options.wantsClient(ORIGINAL) && options.originalClasspath() != null) {
            openers.add((target, prefix) -> new ChildProcessContender(options.originalClasspath(), ORIGINAL_MAIN,
                    List.of(), prefix, target));
        }
        for (BenchOptions.Build build : options.builds()) {
            openers.add((target, prefix) -> new ChildProcessContender(
                    classpathWith(build.jar(), System.getProperty("java.class.path")), OWN_JVM_MAIN,
                    List.of(BUILD + build.name()), prefix, target));
        }
        return openers;
    }

    /** The selected clients that share our classpath, in table order; a tuned variant is {@code tuned:KNOBS}. */
    private static List<String> clientsOnOurClasspath(BenchOptions options) {
        List<String> clients = new ArrayList<>();
        if (options.wantsClient(OURS)) {
            clients.add(OURS);
            for (GrizzlyBootBench.Knobs knobs : options.tuned()) {
                clients.add(TUNED + knobs);
            }
        }
        for (String peer : List.of("spymemcached", "xmemcached", "folsom")) {
            if (options.wantsClient(peer)) {
                clients.add(peer);
            }
        }
        return clients;
    }

    /** {@code classpath} (the harness's) with {@code jar} in place of our library, first. */
    static String classpathWith(String jar, String classpath) {
        List<String> entries = new ArrayList<>(List.of(jar));
        for (String entry : classpath.split(File.pathSeparator)) {
            if (!OUR_LIBRARY.matcher(entry).find()) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Opens a client named as by {@link #clientsOnOurClasspath}, or a build of {@link #openers}. */
    static ClientFactory factoryFor(String client) {
        if (client.startsWith(BUILD)) {
            return target -> GrizzlyBootBench.build(target, client.substring(BUILD.length()));
        }
        if (client.startsWith(TUNED)) {
            GrizzlyBootBench.Knobs knobs = GrizzlyBootBench.Knobs.parse(client.substring(TUNED.length()));
            return target -> GrizzlyBootBench.tuned(target, knobs);
        }
        return switch (client) {
            case OURS -> GrizzlyBootBench::defaults;
            case "spymemcached" -> SpyBench::new;
            case "xmemcached" -> XmemcachedBench::new;
            case "folsom" -> FolsomBench::new;
            default -> throw new IllegalArgumentException("unknown client " + client);
        };
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
