package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerDetails;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Weights shape the ring: a server of weight 4 beside one of weight 1 holds about four fifths
 * of the keys, and a server added at run time with a weight gets its share by that weight.
 */
class WeightedRoutingTest {

    private static final int KEYS = 2_000;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @Test
    void keysAreSpreadByWeightAlsoForAServerAddedLater() {
        memcached.servers().flushAll();
        String heavy = memcached.get(0).address();
        String light = memcached.get(1).address();
        String added = memcached.get(2).address();
        try (MemcachedClient client = MemcachedClient.builder().servers(heavy, light).weight(heavy, 4).build()) {
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 0; i < KEYS; i++) {
                values.put("weighted-" + i, "v");
            }
            assertThat(client.blocking().setMulti(values, Duration.ZERO).errors()).isEmpty();
            // 4 / 5 of the keys by the ring; an even split would put half there.
            assertThat(items(0)).as("items on the server of weight 4").isBetween(KEYS * 70L / 100, KEYS * 90L / 100);
            assertThat(share(client, heavy)).isBetween(0.70, 0.90);

            client.addServer(added, 6);
            assertThat(client.serverDetails()).extracting(ServerDetails::weight).containsExactly(4, 1, 6);
            // 6 / 11 of the keys now go to the added server.
            assertThat(share(client, added)).as("share of the server added with weight 6").isBetween(0.45, 0.65);
        }
    }

    private static double share(MemcachedClient client, String server) {
        ServerAddress address = ServerAddress.parse(server);
        long owned = 0;
        for (int i = 0; i < KEYS; i++) {
            if (client.ownerOf("weighted-" + i).equals(address)) {
                owned++;
            }
        }
        return (double) owned / KEYS;
    }

    private static long items(int server) {
        return Long.parseLong(memcached.get(server).stats().get("curr_items"));
    }
}
