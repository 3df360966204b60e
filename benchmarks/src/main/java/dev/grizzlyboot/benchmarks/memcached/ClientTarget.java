package dev.grizzlyboot.benchmarks.memcached;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What every client of a scenario is built against: the memcached servers ({@code host:port}) and
 * an operation timeout (empty: each client's own default). With more than one server every client
 * is configured for Ketama consistent hashing; with one, none of them hashes.
 */
record ClientTarget(List<String> servers, Optional<Duration> operationTimeout) {

    ClientTarget {
        servers = List.copyOf(servers);
    }

    static ClientTarget of(List<String> servers) {
        return new ClientTarget(servers, Optional.empty());
    }

    ClientTarget withOperationTimeout(Duration timeout) {
        return new ClientTarget(servers, Optional.of(timeout));
    }

    boolean ketama() {
        return servers.size() > 1;
    }
}
