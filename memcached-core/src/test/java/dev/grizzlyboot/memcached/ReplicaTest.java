package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** With one replica, every write lands on two servers, and a killed server loses no key. */
class ReplicaTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @Test
    void eachWriteLandsOnItsOwnerAndOneOtherServer() {
        try (MemcachedClient client = client(true)) {
            client.blocking().set("replicated", "twice", Duration.ZERO);
            assertThat(memcached.addresses().stream().map(this::process)
                    .filter(server -> server.textCommand("get replicated").contains("twice"))).hasSize(2);
            client.blocking().delete("replicated");
            assertThat(memcached.addresses().stream().map(this::process)
                    .filter(server -> server.textCommand("get replicated").contains("twice"))).isEmpty();
        }
    }

    @Test
    void withFailoverAKilledServerCausesNoMisses() {
        killOneAndReadEverything(true);
    }

    @Test
    void withoutFailoverReadsFallBackToTheReplica() {
        killOneAndReadEverything(false);
    }

    private void killOneAndReadEverything(boolean failover) {
        try (MemcachedClient client = client(failover)) {
            memcached.servers().flushAll();
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 0; i < 300; i++) {
                values.put("kept-" + i, "value-" + i);
            }
            List<String> singles = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                client.blocking().set("single-" + i, "one-" + i, Duration.ZERO);
                singles.add("single-" + i);
            }
            assertThat(client.blocking().setMulti(values, Duration.ZERO).errors()).isEmpty();

            MemcachedProcess victim = memcached.get(1);
            victim.kill();
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                client.getMulti(values.keySet()).join();
                return client.serverStates().stream().anyMatch(ServerState::failed);
            });

            BulkResult<Object> read = client.blocking().getMulti(values.keySet());
            assertThat(read.errors()).isEmpty();
            assertThat(read.values()).as("no misses").isEqualTo(values);
            for (int i = 0; i < singles.size(); i++) {
                assertThat(client.blocking().get(singles.get(i))).isEqualTo("one-" + i);
            }
        }
    }

    private MemcachedClient client(boolean failover) {
        return MemcachedClient.builder().servers(memcached.addresses()).replicas(1).failover(failover)
                .operationTimeout(Duration.ofMillis(300)).connectTimeout(Duration.ofMillis(300))
                .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200)).build();
    }

    private MemcachedProcess process(String address) {
        return memcached.get(memcached.addresses().indexOf(address));
    }
}
