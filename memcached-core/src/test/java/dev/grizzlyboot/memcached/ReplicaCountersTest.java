package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With replicas, each copy of a write goes to each server once: a counter's increments are
 * counted once on the owner and once on the replica, never twice on either.
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
}
