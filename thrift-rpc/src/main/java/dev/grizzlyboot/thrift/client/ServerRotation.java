package dev.grizzlyboot.thrift.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Round-robin choice among the servers in rotation. A call's first attempt takes the next healthy
 * server; retries walk on through the other healthy servers and then, as a last resort, the
 * failed ones (the monitor may not have noticed a recovery yet). Thread-safe.
 */
final class ServerRotation {
    private final List<ServerPool> pools;
    private final AtomicInteger next = new AtomicInteger();

    ServerRotation(List<ServerPool> pools) {
        this.pools = List.copyOf(pools);
    }

    List<ServerPool> pools() {
        return pools;
    }

    /** Returns the servers to try for one call, in order; every server appears once. */
    List<ServerPool> order() {
        if (pools.size() == 1) {
            return pools;
        }
        int start = next.getAndIncrement() & Integer.MAX_VALUE;
        List<ServerPool> healthy = new ArrayList<>(pools.size());
        List<ServerPool> failed = new ArrayList<>(0);
        for (ServerPool pool : pools) {
            (pool.healthy() ? healthy : failed).add(pool);
        }
        List<ServerPool> order = new ArrayList<>(pools.size());
        for (int i = 0; i < healthy.size(); i++) {
            order.add(healthy.get((start + i) % healthy.size()));
        }
        order.addAll(failed);
        return order;
    }
}
