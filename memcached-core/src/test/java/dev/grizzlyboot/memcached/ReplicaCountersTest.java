package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.testsupport.MemcachedProcess;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With replicas, each copy of a write goes to each server once: a counter's increments are
 * counted once on the owner and once on the replica, never twice on either, also while the owner
 * is marked failed without failover (the write then goes to the replica alone, once).
 */
class ReplicaCountersTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @Test
    void anIncrementIsAppliedOnceOnEveryCopy() {
        memcached.servers().flushAll();
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addresses()).replicas(1).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            assertThat(blocking.incr("replicated-counter", 1, 10, Duration.ZERO)).isEqualTo(10);
            assertThat(blocking.incr("replicated-counter", 5)).isEqualTo(15);
            assertThat(blocking.incr("replicated-counter", 5)).isEqualTo(20);

            List<List<String>> copies = memcached.addresses().stream()
                    .map(address -> memcached.get(memcached.addresses().indexOf(address)).textCommand("get replicated-counter"))
                    .filter(reply -> reply.size() > 1).toList();
            assertThat(copies).as("servers holding the counter").hasSize(2)
                    .allSatisfy(reply -> assertThat(reply.get(1)).isEqualTo("20"));
        }
    }

    @Test
    void withTheOwnerFailedAndNoFailoverAnIncrementIsAppliedOnceOnTheReplica() {
        memcached.servers().flushAll();
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addresses()).replicas(1).failover(false)
                .failureThreshold(1).operationTimeout(Duration.ofMillis(300)).connectTimeout(Duration.ofMillis(300))
                .healthCheckInterval(Duration.ofSeconds(30), Duration.ofSeconds(30)).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            String key = "counter-of-failed-owner";
            assertThat(blocking.incr(key, 1, 10, Duration.ZERO)).isEqualTo(10);
            ServerAddress owner = client.ownerOf(key);
            MemcachedProcess ownerProcess = memcached.get(memcached.addresses().indexOf(owner.toString()));
            ownerProcess.kill();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                client.get(key).handle((value, error) -> null).join();
                return client.serverStates().stream().anyMatch(state -> state.server().equals(owner) && state.failed());
            });
            ServerAddress replica = client.serverFor(key);
            assertThat(replica).isNotEqualTo(owner);

            assertThat(blocking.incr(key, 5)).isEqualTo(15);
            List<String> reply = memcached.get(memcached.addresses().indexOf(replica.toString())).textCommand("get " + key);
            assertThat(reply).as("the replica's copy").hasSize(2);
            assertThat(reply.get(1)).isEqualTo("15");
        }
    }
}
