package dev.grizzlyboot.memcached.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.junit.jupiter.api.Test;

class KetamaRingTest {

    @Test
    void spreadsKeysRoughlyEvenly() {
        List<String> servers = List.of("10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211");
        KetamaRing<String> ring = KetamaRing.of(servers, servers);
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 30_000; i++) {
            counts.merge(ring.locate(utf8("key-" + i)), 1, Integer::sum);
        }
        assertThat(counts).hasSize(3);
        assertThat(counts.values()).allMatch(count -> count > 7_000 && count < 13_000);
    }

    @Test
    void removingOneOfFourServersMovesOnlyItsKeys() {
        List<String> four = List.of("a:1", "b:1", "c:1", "d:1");
        List<String> three = List.of("a:1", "b:1", "c:1");
        KetamaRing<String> before = KetamaRing.of(four, four);
        KetamaRing<String> after = KetamaRing.of(three, three);
        int moved = 0;
        for (int i = 0; i < 20_000; i++) {
            String key = "key-" + i;
            String was = before.locate(utf8(key));
            String now = after.locate(utf8(key));
            if (!was.equals(now)) {
                moved++;
                assertThat(was).isEqualTo("d:1");
            }
        }
        assertThat(moved).isBetween(20_000 / 4 - 2_000, 20_000 / 4 + 2_000);
    }

    @Test
    void addingAFifthServerMovesAboutAFifthOfTheKeysAllToIt() {
        List<String> four = List.of("a:1", "b:1", "c:1", "d:1");
        List<String> five = List.of("a:1", "b:1", "c:1", "d:1", "e:1");
        KetamaRing<String> before = KetamaRing.of(four, four);
        KetamaRing<String> after = KetamaRing.of(five, five);
        int moved = 0;
        for (int i = 0; i < 20_000; i++) {
            String key = "key-" + i;
            if (!before.locate(utf8(key)).equals(after.locate(utf8(key)))) {
                moved++;
                assertThat(after.locate(utf8(key))).isEqualTo("e:1");
            }
        }
        assertThat(moved).isBetween(20_000 / 5 - 2_000, 20_000 / 5 + 2_000);
    }

    @Test
    void replicaWalkGivesTheOwnerThenDistinctServersThenStops() {
        List<String> servers = List.of("a:1", "b:1", "c:1");
        KetamaRing<String> ring = KetamaRing.of(servers, servers);
        for (int i = 0; i < 1_000; i++) {
            String key = "key-" + i;
            List<String> two = ring.locate(utf8(key), 2);
            assertThat(two).hasSize(2).doesNotHaveDuplicates().first().isEqualTo(ring.locate(utf8(key)));
            assertThat(ring.locate(utf8(key), 10)).hasSize(3).doesNotHaveDuplicates().startsWith(two.toArray(String[]::new));
        }
        // Without its owner, a key goes to the server its replica walk names next: failover and replicas agree.
        KetamaRing<String> withoutA = KetamaRing.of(List.of("b:1", "c:1"), List.of("b:1", "c:1"));
        for (int i = 0; i < 1_000; i++) {
            String key = "key-" + i;
            List<String> walk = ring.locate(utf8(key), 2);
            if (walk.get(0).equals("a:1")) {
                assertThat(withoutA.locate(utf8(key))).isEqualTo(walk.get(1));
            }
        }
    }

    @Test
    void serverAddressesParseAndPrintCanonically() {
        assertThat(ServerAddress.parse(" cache1:11212 ")).hasToString("cache1:11212");
        assertThat(ServerAddress.parse("cache1").port()).isEqualTo(11211);
        assertThat(ServerAddress.parse("[::1]:11213")).isEqualTo(new ServerAddress("::1", 11213)).hasToString("[::1]:11213");
        assertThat(ServerAddress.parse("[::1]")).isEqualTo(new ServerAddress("::1", 11211));
    }

    @Test
    void malformedServerAddressesAreRefusedWithTheirText() {
        for (String bad : new String[] {"", " ", ":11211", "cache1:", "cache1:x", "cache1:0", "cache1:65536",
                "::1:11211", "[::1", "[::1]x11211", "[::1]11211", "[::1]:", "[]:11211"}) {
            assertThatThrownBy(() -> ServerAddress.parse(bad)).as("'%s'", bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> ServerAddress.parse("[::1]x11211")).hasMessageContaining("'[::1]x11211'");
    }

    private static byte[] utf8(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
