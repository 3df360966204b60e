package dev.grizzlyboot.memcached.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.cluster.KetamaNaming;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.testsupport.ProcessOutput;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our ring against the two other implementations asked live, on server lists generated over the
 * whole range rather than the shipped vectors' few: every server count from 1 to 64 and larger
 * ones to 300 (to 100 for libmemcached, its most), equal weights (1 and others) and random ones
 * (up to 100, some with one server 1,000 times heavier), ports on and off 11211. spymemcached's {@code KetamaNodeLocator} (in this
 * JVM) answers for both namings, libmemcached's {@code ketama_weighted} (through ctypes,
 * src/test/libmemcached/ketama_owners.py; Debian package {@code libmemcached11}) for its own.
 * The weighted formula's float arithmetic is where two rings drift apart, so weights vary most.
 */
class GeneratedKetamaTest {

    private static final int KEYS = 2_000;
    private static final Path OWNERS_SCRIPT = Path.of("src/test/libmemcached/ketama_owners.py").toAbsolutePath();
    private static List<String> keys;

    @BeforeAll
    static void load() {
        keys = KetamaVectors.keys().subList(0, KEYS);
    }

    @Test
    void hostPortNamingMatchesSpymemcachedOnGeneratedLists() throws Exception {
        for (KetamaVectors.Case c : generated(KetamaNaming.HOST_PORT, new Random(11211))) {
            assertThat(owners(c)).as(c.name()).isEqualTo(c.spymemcached(keys));
        }
    }

    @Test
    void libmemcachedNamingMatchesSpymemcachedsLibmemcachedModeOnGeneratedLists() throws Exception {
        for (KetamaVectors.Case c : generated(KetamaNaming.LIBMEMCACHED, new Random(22122))) {
            assertThat(owners(c)).as(c.name()).isEqualTo(c.spymemcached(keys));
        }
    }

    @Test
    void libmemcachedNamingMatchesLibmemcachedItselfOnGeneratedLists() throws Exception {
        // libmemcached's continuum holds at most 100 servers (MEMCACHED_CONTINUUM_SIZE); it asserts beyond.
        List<KetamaVectors.Case> cases = generated(KetamaNaming.LIBMEMCACHED, new Random(33133)).stream()
                .filter(c -> c.servers().size() <= 100).toList();
        List<List<Integer>> answers = libmemcached(cases);
        assertThat(answers).hasSize(cases.size());
        for (int i = 0; i < cases.size(); i++) {
            assertThat(owners(cases.get(i))).as(cases.get(i).name()).isEqualTo(answers.get(i));
        }
    }

    /**
     * Server lists: every count from 1 to 64, then 80, 100, 128, 160, 200, 256 and 300; per count
     * weights all 1, all one other value, random from 1 to 100, or random with one server at 1,000.
     */
    private static List<KetamaVectors.Case> generated(KetamaNaming naming, Random random) {
        List<Integer> counts = new ArrayList<>();
        for (int count = 1; count <= 64; count++) {
            counts.add(count);
        }
        counts.addAll(List.of(80, 100, 128, 160, 200, 256, 300));
        List<KetamaVectors.Case> cases = new ArrayList<>();
        for (int count : counts) {
            List<ServerAddress> servers = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int port = random.nextInt(3) == 0 ? 11211 : 1024 + random.nextInt(60_000);
                String host = naming == KetamaNaming.HOST_PORT
                        ? "10." + random.nextInt(256) + "." + (i / 250) + "." + (i % 250 + 1)
                        : "cache-" + i + "-" + Integer.toString(random.nextInt(1 << 20), 36) + ".internal";
                servers.add(new ServerAddress(host, port));
            }
            int kind = count % 4;
            int same = 1 + random.nextInt(20);
            int heavy = random.nextInt(count);
            List<Integer> weights = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                weights.add(switch (kind) {
                    case 0 -> 1;
                    case 1 -> same;
                    case 2 -> 1 + random.nextInt(100);
                    default -> i == heavy ? 1_000 : 1 + random.nextInt(10);
                });
            }
            cases.add(new KetamaVectors.Case(naming + "-" + count + "-weights-" + weights, naming, servers, weights));
        }
        return cases;
    }

    private static List<Integer> owners(KetamaVectors.Case c) {
        return c.ourOwners(keys);
    }

    /** libmemcached's owner of every key in every case, from ketama_owners.py. */
    private static List<List<Integer>> libmemcached(List<KetamaVectors.Case> cases) throws Exception {
        Process python = new ProcessBuilder("python3", OWNERS_SCRIPT.toString()).start();
        CompletableFuture<String> errors = ProcessOutput.readInBackground(python.getErrorStream());
        CompletableFuture<String> output = ProcessOutput.readInBackground(python.getInputStream());
        try (OutputStream in = python.getOutputStream()) {
            in.write(request(cases).getBytes(StandardCharsets.UTF_8));
        }
        assertThat(python.waitFor(2, TimeUnit.MINUTES)).as("ketama_owners.py ended").isTrue();
        String printed = output.get(10, TimeUnit.SECONDS);
        assertThat(python.exitValue()).as("ketama_owners.py failed: %s", errors.get(10, TimeUnit.SECONDS)).isZero();
        List<String> lines = printed.lines().toList();
        assertThat(lines.get(0)).as("libmemcached's version").matches("1\\.\\d+\\.\\d+.*");
        return lines.subList(1, lines.size()).stream()
                .map(line -> Arrays.stream(line.trim().split(" ")).map(Integer::valueOf).toList())
                .toList();
    }

    private static String request(List<KetamaVectors.Case> cases) {
        StringBuilder json = new StringBuilder("{\"keys\": [");
        for (int k = 0; k < keys.size(); k++) {
            json.append(k == 0 ? "" : ", ").append(quoted(keys.get(k)));
        }
        json.append("], \"cases\": [");
        for (int c = 0; c < cases.size(); c++) {
            KetamaVectors.Case one = cases.get(c);
            json.append(c == 0 ? "" : ", ").append("{\"servers\": [");
            for (int s = 0; s < one.servers().size(); s++) {
                ServerAddress server = one.servers().get(s);
                json.append(s == 0 ? "" : ", ").append('[').append(quoted(server.host())).append(", ").append(server.port()).append(']');
            }
            json.append("], \"weights\": ").append(one.weights()).append('}');
        }
        return json.append("]}").toString();
    }

    /** A JSON string; the keys and host names hold no quote, backslash or control character. */
    private static String quoted(String text) {
        assertThat(text).doesNotContain("\"", "\\");
        return '"' + text + '"';
    }
}
