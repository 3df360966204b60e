package dev.grizzlyboot.memcached.internal.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.grizzlyboot.memcached.cluster.KetamaNaming;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;

/**
 * The server lists and keys of the Ketama compatibility vectors, spymemcached's answers for them
 * (the oracle), and the shipped vectors file {@value #RESOURCE}. Run {@link #main} to write the
 * file again from spymemcached 2.12.3.
 */
final class KetamaVectors {

    static final String RESOURCE = "ketama-vectors.tsv";
    static final String LIBMEMCACHED_RESOURCE = "ketama-libmemcached-vectors.tsv";
    static final int KEYS = 10_000;

    static {
        // spymemcached asserts 160 points per server after building a ring, which its own weighted
        // mode never gives; the tests run with -ea, so switch its assertions off before it loads.
        KetamaVectors.class.getClassLoader().setPackageAssertionStatus("net.spy.memcached", false);
    }

    /** A server list as both clients are configured with it. */
    record Case(String name, KetamaNaming naming, List<ServerAddress> servers, List<Integer> weights) {

        KetamaRing<ServerAddress> ours() {
            return KetamaRing.of(naming, servers, servers, weights);
        }

        /** Where our ring puts each key, as an index into {@link #servers}. */
        List<Integer> ourOwners(List<String> keys) {
            KetamaRing<ServerAddress> ring = ours();
            List<Integer> owners = new ArrayList<>(keys.size());
            for (String key : keys) {
                owners.add(servers.indexOf(ring.locate(key.getBytes(StandardCharsets.UTF_8))));
            }
            return owners;
        }

        /** Where spymemcached's KetamaNodeLocator puts a key, as an index into {@link #servers}. */
        List<Integer> spymemcached(List<String> keys) throws IOException {
            List<MemcachedNode> nodes = new ArrayList<>();
            Map<InetSocketAddress, Integer> weightByAddress = new HashMap<>();
            for (int i = 0; i < servers.size(); i++) {
                InetSocketAddress address = socketAddress(servers.get(i));
                nodes.add(node(address, i));
                weightByAddress.put(address, weights.get(i));
            }
            // libmemcached's ketama_weighted is spymemcached's weighted mode, also for equal weights.
            boolean weighted = naming == KetamaNaming.LIBMEMCACHED || weights.stream().distinct().count() > 1;
            KetamaNodeKeyFormatter.Format format = naming == KetamaNaming.LIBMEMCACHED
                    ? KetamaNodeKeyFormatter.Format.LIBMEMCACHED : KetamaNodeKeyFormatter.Format.SPYMEMCACHED;
            KetamaNodeLocator locator = new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH, format,
                    weighted ? weightByAddress : Map.of());
            List<Integer> owners = new ArrayList<>(keys.size());
            for (String key : keys) {
                owners.add(nodes.indexOf(locator.getPrimary(key)));
            }
            return owners;
        }

        /**
         * spymemcached names a server by its socket address: an IP literal without a host name
         * prints as {@code ip:port} (its default naming), an unresolved host name gives
         * {@code getHostName()} without a DNS lookup (its libmemcached naming).
         */
        private InetSocketAddress socketAddress(ServerAddress server) throws IOException {
            if (naming == KetamaNaming.LIBMEMCACHED) {
                return InetSocketAddress.createUnresolved(server.host(), server.port());
            }
            String[] octets = server.host().split("\\.");
            byte[] ip = new byte[4];
            for (int i = 0; i < 4; i++) {
                ip[i] = (byte) Integer.parseInt(octets[i]);
            }
            return new InetSocketAddress(InetAddress.getByAddress(ip), server.port());
        }
    }

    static List<Case> cases() {
        return List.of(
                equalWeights("three-servers", KetamaNaming.HOST_PORT, "10.0.0.1:11211,10.0.0.2:11211,10.0.0.3:11211"),
                equalWeights("five-servers-mixed-ports", KetamaNaming.HOST_PORT,
                        "192.168.1.10:11211,192.168.1.10:11212,192.168.1.11:11211,192.168.1.12:11213,192.168.1.13:11211"),
                equalWeights("eight-servers", KetamaNaming.HOST_PORT,
                        "172.16.0.1:11211,172.16.0.2:11211,172.16.0.3:11211,172.16.0.4:11211,"
                                + "172.16.0.5:11211,172.16.0.6:11211,172.16.0.7:11211,172.16.0.8:11211"),
                equalWeights("libmemcached-names", KetamaNaming.LIBMEMCACHED,
                        "cache-a:11211,cache-b:11212,cache-c:11211,cache-d:22122"),
                new Case("weighted", KetamaNaming.HOST_PORT,
                        ServerAddress.parseAll(List.of("10.1.0.1:11211,10.1.0.2:11211,10.1.0.3:11211,10.1.0.4:11211")),
                        List.of(1, 2, 3, 1)));
    }

    /** {@code count} servers of equal weight named by IP address, as most spymemcached users list them. */
    static Case equalWeights(int count) {
        List<ServerAddress> servers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            servers.add(new ServerAddress("10.20." + (i / 200) + "." + (i % 200 + 1), 11211 + i % 3));
        }
        return new Case("equal-" + count, KetamaNaming.HOST_PORT, servers, servers.stream().map(server -> 1).toList());
    }

    /**
     * libmemcached's own answers, {@value #LIBMEMCACHED_RESOURCE} (written by
     * {@code src/test/libmemcached/ketama_vectors.py}): the cases from its header, with the owner
     * index of each of the first keys of {@link #keys()}.
     */
    static Map<Case, List<Integer>> libmemcached() throws IOException {
        List<Case> cases = new ArrayList<>();
        List<int[]> rows = rows(LIBMEMCACHED_RESOURCE, comment -> {
            if (comment[0].equals("# case")) {
                cases.add(new Case(comment[1], KetamaNaming.LIBMEMCACHED, ServerAddress.parseAll(List.of(comment[2])),
                        Arrays.stream(comment[3].split(",")).map(Integer::valueOf).toList()));
            }
        });
        Map<Case, List<Integer>> owners = new LinkedHashMap<>();
        for (int c = 0; c < cases.size(); c++) {
            owners.put(cases.get(c), column(rows, c));
        }
        return owners;
    }

    /** Plain, structured, non-ASCII and long keys. */
    static List<String> keys() {
        List<String> keys = new ArrayList<>(KEYS);
        for (int i = 0; i < KEYS; i++) {
            keys.add(switch (i % 5) {
                case 0 -> "key-" + i;
                case 1 -> "user:" + i + ":profile";
                case 2 -> "ключ-" + i;
                case 3 -> "日本語-" + i + "-€";
                default -> "long-" + i + "-" + "x".repeat(80);
            });
        }
        return keys;
    }

    /** The shipped answers: case name to owner index per key, in {@link #keys()} order. */
    static Map<String, List<Integer>> read() throws IOException {
        List<int[]> rows = rows(RESOURCE, comment -> { });
        Map<String, List<Integer>> owners = new LinkedHashMap<>();
        List<Case> cases = cases();
        for (int c = 0; c < cases.size(); c++) {
            owners.put(cases.get(c).name(), column(rows, c));
        }
        return owners;
    }

    /**
     * The owner columns of each row of a vectors file, whose first field must be the row's key
     * of {@link #keys()}; comment lines (split at tabs) go to {@code comments}.
     */
    private static List<int[]> rows(String resource, Consumer<String[]> comments) throws IOException {
        List<String> keys = keys();
        List<int[]> rows = new ArrayList<>();
        for (String line : lines(resource)) {
            String[] fields = line.split("\t");
            if (line.startsWith("#")) {
                comments.accept(fields);
                continue;
            }
            if (!fields[0].equals(keys.get(rows.size()))) {
                throw new IOException(resource + " row " + rows.size() + " has key '" + fields[0] + "', expected '"
                        + keys.get(rows.size()) + "'");
            }
            rows.add(Arrays.stream(fields, 1, fields.length).mapToInt(Integer::parseInt).toArray());
        }
        return rows;
    }

    private static List<Integer> column(List<int[]> rows, int index) {
        return rows.stream().map(row -> row[index]).toList();
    }

    private static List<String> lines(String resource) throws IOException {
        try (InputStream in = KetamaVectors.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is not on the test class path");
            }
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList();
        }
    }

    /** Writes the vectors file from spymemcached's answers: {@code main(path-to-resource)}. */
    public static void main(String[] args) throws IOException {
        List<String> keys = keys();
        List<List<Integer>> columns = new ArrayList<>();
        for (Case c : cases()) {
            columns.add(c.spymemcached(keys));
        }
        try (Writer out = Files.newBufferedWriter(Path.of(args[0]), StandardCharsets.UTF_8)) {
            out.write("# Ketama owners computed by spymemcached 2.12.3 KetamaNodeLocator (KETAMA_HASH); see KetamaVectors.\n");
            for (Case c : cases()) {
                out.write("# " + c.name() + " naming=" + c.naming() + " servers=" + c.servers() + " weights=" + c.weights() + "\n");
            }
            for (int k = 0; k < keys.size(); k++) {
                StringBuilder line = new StringBuilder(keys.get(k));
                for (List<Integer> column : columns) {
                    line.append('\t').append(column.get(k));
                }
                out.write(line.append('\n').toString());
            }
        }
    }

    private static Case equalWeights(String name, KetamaNaming naming, String servers) {
        List<ServerAddress> list = ServerAddress.parseAll(List.of(servers));
        return new Case(name, naming, list, list.stream().map(server -> 1).toList());
    }

    private static MemcachedNode node(InetSocketAddress address, int index) {
        return (MemcachedNode) Proxy.newProxyInstance(KetamaVectors.class.getClassLoader(), new Class<?>[] {MemcachedNode.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getSocketAddress" -> address;
                    case "toString" -> "node-" + index + " " + address;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private KetamaVectors() {
    }
}
