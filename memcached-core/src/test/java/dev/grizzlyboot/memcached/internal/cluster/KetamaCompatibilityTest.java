package dev.grizzlyboot.memcached.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our Ketama ring places every key exactly where spymemcached's KetamaNodeLocator does, for
 * several server lists (IP addresses, mixed ports, eight servers, libmemcached naming, weights)
 * and 10,000 keys each, checked against the shipped vectors and against spymemcached itself.
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
        KetamaRing<ServerAddress> ring = c.ours();
        List<Integer> owners = new ArrayList<>(keys.size());
        for (String key : keys) {
            owners.add(c.servers().indexOf(ring.locate(key)));
        }
        return owners;
    }
}
