package dev.grizzlyboot.memcached;

import java.util.concurrent.CompletableFuture;

import dev.grizzlyboot.memcached.internal.cluster.Cluster;

/**
 * What the client measures about itself. Without a meter registry it is {@link #NONE}, which does
 * nothing and names no Micrometer type, so Micrometer stays an optional dependency and an
 * unmeasured client pays nothing on its hot path. Thread-safe.
 */
interface ClientMeters {

    /** Measures nothing. */
    ClientMeters NONE = new ClientMeters() {
        @Override
        public long start() {
            return 0;
        }

        @Override
        public <T> CompletableFuture<T> record(String operation, long startNanos, CompletableFuture<T> result) {
            return result;
        }

        @Override
        public void bind(Cluster cluster, NearCache near) {
        }

        @Override
        public void close() {
        }
    };

    /** When a request starts, to be given back to {@link #record}. */
    long start();

    /** Times {@code result} when it completes, by operation and outcome; returns {@code result} itself. */
    <T> CompletableFuture<T> record(String operation, long startNanos, CompletableFuture<T> result);

    /** Starts measuring the client's servers (pools, failures) and near cache. */
    void bind(Cluster cluster, NearCache near);

    /** Removes the client's meters from the registry (the client is closed). */
    void close();
}
