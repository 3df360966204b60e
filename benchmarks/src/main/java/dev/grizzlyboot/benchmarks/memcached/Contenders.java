package dev.grizzlyboot.benchmarks.memcached;

import java.io.File;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
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
    /** Peers on the text protocol, selectable by name in {@code --clients}. */
    private static final List<String> TEXT_PROTOCOL_PEERS = List.of("spymemcached-text", "xmemcached-text", "folsom-text");
    /**
     * The ones {@code all} adds to the one-server and 3-server cells, for getMulti only: there a
     * text multi-key get costs memcached about half the CPU per key of the binary protocol's quiet
     * gets, and these two peers read faster on it than on binary; elsewhere neither was faster
     * ("Fifteenth round"). spymemcached's text protocol was slower than these two at getMulti.
     */
    private static final List<String> TEXT_PEERS_IN_ALL = List.of("xmemcached-text", "folsom-text");
    /** Our library on the harness's class path: a jar from the local repository or the module's classes. */
    private static final Pattern OUR_LIBRARY = Pattern.compile("(grizzlyboot-memcached-\\d[^/]*\\.jar|memcached-core/target/classes/?)$");

    private final List<Opened> contenders = new ArrayList<>();

    /** {@code withTextPeers}: a scenario of cells, where {@code all} includes {@link #TEXT_PEERS_IN_ALL}. */
    Contenders(ClientTarget target, BenchOptions options, boolean withTextPeers) throws Exception {
        try {
            for (Selected selected : openers(options, withTextPeers)) {
                contenders.add(new Opened(selected.opener().open(target, "c" + contenders.size()),
                        workloadsOf(selected.client(), options)));
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

    /** A selected client, by its {@code --clients} name, and how to open it. */
    record Selected(String client, Opener opener) {
    }

    private record Opened(Contender contender, Set<Workload> workloads) {
    }

    /**
     * How to open each selected client, in table order: ours (defaults, then tuned variants), the
     * peers on our classpath, the original grizzly-memcached in its own JVM, then the builds of
     * {@code --builds}, a JVM each. With {@code --jvm-per-client=true} the clients on our classpath
     * get a JVM each too.
     */
    static List<Selected> openers(BenchOptions options, boolean withTextPeers) {
        List<Selected> openers = new ArrayList<>();
        for (String client : clientsOnOurClasspath(options, withTextPeers)) {
            if (options.jvmPerClient()) {
                openers.add(new Selected(client, (target, prefix) -> new ChildProcessContender(
                        System.getProperty("java.class.path"), OWN_JVM_MAIN, List.of(client), prefix, target)));
            } else {
                openers.add(new Selected(client,
                        (target, prefix) -> new InProcessContender(factoryFor(client).open(target), prefix)));
            }
        }
        if (options.wantsClient(ORIGINAL) && options.originalClasspath() != null) {
            openers.add(new Selected(ORIGINAL, (target, prefix) -> new ChildProcessContender(
                    options.originalClasspath(), ORIGINAL_MAIN, List.of(), prefix, target)));
        }
        for (BenchOptions.Build build : options.builds()) {
            String client = BUILD + build.name();
            openers.add(new Selected(client, (target, prefix) -> new ChildProcessContender(
                    classpathWith(build.jar(), System.getProperty("java.class.path")), OWN_JVM_MAIN,
                    List.of(client), prefix, target)));
        }
        return openers;
    }

    /** The selected clients that share our classpath, in table order; a tuned variant is {@code tuned:KNOBS}. */
    static List<String> clientsOnOurClasspath(BenchOptions options, boolean withTextPeers) {
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
        for (String variant : TEXT_PROTOCOL_PEERS) {
            if (options.namesClient(variant) || withTextPeers && options.namesClient("all") && TEXT_PEERS_IN_ALL.contains(variant)) {
                clients.add(variant);
            }
        }
        return clients;
    }

    /**
     * The workloads whose cells a client (a {@code --clients} name) takes part in. What {@code all}
     * brings in runs where it can be the best peer: a peer's text protocol getMulti only, the
     * original grizzly-memcached everything but getMulti (in five whole runs it made 0.42-0.90 of
     * the best other peer's getMulti, and the text peers read faster still; "Fifteenth round").
     * Named in {@code --clients}, a client runs every workload.
     */
    static Set<Workload> workloadsOf(String client, BenchOptions options) {
        if (options.namesClient(client)) {
            return EnumSet.allOf(Workload.class);
        }
        if (client.equals(ORIGINAL)) {
            return EnumSet.complementOf(EnumSet.of(Workload.GET_MULTI));
        }
        return TEXT_PEERS_IN_ALL.contains(client) ? EnumSet.of(Workload.GET_MULTI) : EnumSet.allOf(Workload.class);
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
            case "spymemcached-text" -> target -> new SpyBench(target, true);
            case "xmemcached-text" -> target -> new XmemcachedBench(target, true);
            case "folsom-text" -> target -> new FolsomBench(target, true);
            default -> throw new IllegalArgumentException("unknown client " + client);
        };
    }

    List<Contender> all() {
        return contenders.stream().map(Opened::contender).toList();
    }

    /** The contenders that take part in a workload's cells ({@link #workloadsOf}), in table order. */
    List<Contender> in(Workload workload) {
        return contenders.stream().filter(opened -> opened.workloads().contains(workload)).map(Opened::contender).toList();
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
        for (Opened opened : contenders) {
            opened.contender().close();
        }
    }
}
