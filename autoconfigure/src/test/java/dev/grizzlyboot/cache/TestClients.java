package dev.grizzlyboot.cache;

import java.time.Duration;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.MemcachedClientBuilder;

/** Clients for tests: patient timeouts, so that a loaded CI machine does not look like an outage. */
final class TestClients {

    private static final Duration PATIENT = Duration.ofSeconds(5);

    private TestClients() {
    }

    static MemcachedClientBuilder patient(String addresses) {
        return MemcachedClient.builder().servers(addresses).connectTimeout(PATIENT).operationTimeout(PATIENT);
    }

    static MemcachedClient connect(String addresses) {
        return patient(addresses).build();
    }
}
