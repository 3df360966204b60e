package dev.grizzlyboot.memcached.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.grizzlyboot.memcached.cluster.KetamaNaming;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our Ketama ring places every key exactly where spymemcached's KetamaNodeLocator does (default
 * naming: every server count from 1 to 100 without weights, and weighted lists, 10,000 keys each,
 * against spymemcached itself and the shipped vectors) and where libmemcached's
 * {@code ketama_weighted} does (libmemcached naming: the vectors libmemcached itself computed).
 */
class KetamaCompatibilityTest {

    private static List<String> keys;
    private static Map<String, List<Integer>> shipped;

    @BeforeAll
    static void load() throws Exception {
        keys = KetamaVectors.keys();
        shipped = KetamaVectors.read();
    }

    @Test
    void everyKeyLandsWhereTheShippedVectorsSay() {
        for (KetamaVectors.Case c : KetamaVectors.cases()) {
            assertThat(owners(c)).as(c.name()).hasSize(KetamaVectors.KEYS).isEqualTo(shipped.get(c.name()));
        }
    }

    @Test
    void shippedVectorsAreSpymemcachedsAnswers() throws Exception {
        for (KetamaVectors.Case c : KetamaVectors.cases()) {
            assertThat(c.spymemcached(keys)).as(c.name()).isEqualTo(shipped.get(c.name()));
        }
    }

    @Test
    void everyServerCountFrom1To100WithoutWeightsMatchesSpymemcached() throws Exception {
        for (int count = 1; count <= 100; count++) {
            KetamaVectors.Case c = KetamaVectors.equalWeights(count);
            assertThat(owners(c)).as(c.name()).isEqualTo(c.spymemcached(keys));
        }
    }

    @Test
    void weightedListsMatchSpymemcached() throws Exception {
        List<ServerAddress> servers = KetamaVectors.equalWeights(25).servers();
        List<KetamaVectors.Case> cases = List.of(
                new KetamaVectors.Case("weighted-25", KetamaNaming.HOST_PORT, servers,
                        IntStream.range(0, 25).map(i -> 1 + i % 4).boxed().toList()),
                new KetamaVectors.Case("weighted-7", KetamaNaming.HOST_PORT, servers.subList(0, 7), List.of(1, 2, 3, 4, 5, 6, 7)),
                new KetamaVectors.Case("weighted-2-heavy", KetamaNaming.HOST_PORT, servers.subList(0, 2), List.of(1, 100)));
        for (KetamaVectors.Case c : cases) {
            assertThat(owners(c)).as(c.name()).isEqualTo(c.spymemcached(keys));
        }
    }

    @Test
    void libmemcachedNamingMatchesLibmemcachedKetamaWeighted() throws Exception {
        Map<KetamaVectors.Case, List<Integer>> libmemcached = KetamaVectors.libmemcached();
        assertThat(libmemcached.keySet()).extracting(KetamaVectors.Case::name).contains("equal-1", "equal-25", "equal-100", "weighted-25");
        libmemcached.forEach((c, expected) -> assertThat(owners(c).subList(0, expected.size())).as(c.name()).isEqualTo(expected));
    }

    @Test
    void libmemcachedsVectorsAgreeWithSpymemcachedsWeightedMode() throws Exception {
        // Two independent implementations of ketama_weighted: the shipped vectors are not our ring's echo.
        for (Map.Entry<KetamaVectors.Case, List<Integer>> entry : KetamaVectors.libmemcached().entrySet()) {
            List<Integer> expected = entry.getValue();
            assertThat(entry.getKey().spymemcached(keys).subList(0, expected.size())).as(entry.getKey().name()).isEqualTo(expected);
        }
    }

    @Test
    void theTwoLayoutsDifferWhereTheFloatFormulaLosesPoints() {
        // At 25 equal servers libmemcached's float arithmetic gives 156 points each, spymemcached 160.
        // Off the default port both namings give the same names, so only the point counts differ.
        KetamaVectors.Case equal = KetamaVectors.equalWeights(25);
        List<ServerAddress> servers = equal.servers().stream().map(server -> new ServerAddress(server.host(), 11212)).toList();
        List<Integer> spymemcached = owners(new KetamaVectors.Case("spymemcached-25", KetamaNaming.HOST_PORT, servers, equal.weights()));
        List<Integer> libmemcached = owners(new KetamaVectors.Case("libmemcached-25", KetamaNaming.LIBMEMCACHED, servers, equal.weights()));
        long moved = IntStream.range(0, keys.size()).filter(k -> !spymemcached.get(k).equals(libmemcached.get(k))).count();
        assertThat(moved).isBetween(50L, 600L);
    }

    @Test
    void vectorsUseEveryServer() {
        for (KetamaVectors.Case c : KetamaVectors.cases()) {
            assertThat(shipped.get(c.name())).as(c.name()).containsAll(
                    java.util.stream.IntStream.range(0, c.servers().size()).boxed().toList());
        }
    }

    @Test
    void heavierServersOwnMoreKeys() {
        KetamaVectors.Case weighted = KetamaVectors.cases().stream().filter(c -> c.name().equals("weighted")).findFirst().orElseThrow();
        int[] counts = new int[weighted.servers().size()];
        shipped.get("weighted").forEach(owner -> counts[owner]++);
        // weights 1, 2, 3, 1 of 7: the weight-3 server owns about 3/7 of the keys, the weight-1 ones about 1/7.
        assertThat(counts[2]).isBetween(KetamaVectors.KEYS * 3 / 7 - 800, KetamaVectors.KEYS * 3 / 7 + 800);
        assertThat(counts[0]).isBetween(KetamaVectors.KEYS / 7 - 600, KetamaVectors.KEYS / 7 + 600);
    }

    private static List<Integer> owners(KetamaVectors.Case c) {
        return c.ourOwners(keys);
    }
}
