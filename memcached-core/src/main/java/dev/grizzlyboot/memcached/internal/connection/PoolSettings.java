package dev.grizzlyboot.memcached.internal.connection;

import java.time.Duration;

/**
 * How a {@link ConnectionPool} sizes and maintains its connections. Immutable. Internal.
 *
 * @param minConnections    connections kept open even when idle
 * @param maxConnections    most connections to one server
 * @param pipelineDepth     pending operations on every connection before another is opened
 * @param connectTimeout    how long a connect may take
 * @param idleTimeout       how long a connection above the minimum may sit idle before it is closed
 * @param reconnectBackoff  first wait after a failed connect; doubles per failure up to {@code maxReconnectBackoff}
 * @param maxReconnectBackoff longest wait between connect attempts
 */
public record PoolSettings(int minConnections, int maxConnections, int pipelineDepth, Duration connectTimeout,
        Duration idleTimeout, Duration reconnectBackoff, Duration maxReconnectBackoff) {

    public PoolSettings {
        if (minConnections < 0 || maxConnections < 1 || minConnections > maxConnections) {
            throw new IllegalArgumentException("need 0 <= minConnections <= maxConnections and maxConnections >= 1, got "
                    + minConnections + ".." + maxConnections);
        }
        if (pipelineDepth < 1) {
            throw new IllegalArgumentException("pipelineDepth must be >= 1, was " + pipelineDepth);
        }
    }
}
