package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A replicated setMulti reports each key's owner outcome: a hung server fails the keys it owns,
 * while the keys it holds only a replica of are reported as stored by their owners.
 */
class ReplicatedBulkWriteTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @Test
    void aHungReplicaDoesNotFailTheKeysItDoesNotOwn() {
        MemcachedProcess hung = memcached.get(1);
        ServerAddress hungAddress = ServerAddress.parse(hung.address());
        // Failed only after far more timeouts than this call makes: every key keeps its owner and replica.
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addresses()).replicas(1).failover(false)
                .failureThreshold(10_000).operationTimeout(Duration.ofMillis(300)).build()) {
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 0; i < 300; i++) {
                values.put("replicated-bulk-" + i, "v" + i);
            }
            client.blocking().setMulti(Map.of("warm-up", "v"), Duration.ZERO);
            hung.pause();
            BulkResult<Object> written;
            try {
                written = client.blocking().setMulti(values, Duration.ZERO);
            } finally {
                hung.resume();
            }
            for (String key : values.keySet()) {
                Outcome expected = client.ownerOf(key).equals(hungAddress) ? Outcome.ERROR : Outcome.STORED;
                assertThat(written.outcome(key)).as("outcome of %s", key).isEqualTo(expected);
            }
        }
    }
}
