package dev.grizzlyboot.memcached.internal.cluster;

import java.time.Duration;

import dev.grizzlyboot.memcached.cluster.KetamaNaming;

/**
 * How a {@link Cluster} detects failed servers, probes them and spreads copies. Immutable. Internal.
 *
 * @param failover             whether a failed server leaves the ring (its keys go to the next servers)
 *                             rather than failing its keys' operations at once
 * @param failureThreshold     consecutive connect failures, lost connections or timeouts that mark a server failed
 * @param firstProbeDelay      wait before the first health check of a failed server; doubles per failed check
 * @param maxProbeDelay        longest wait between health checks
 * @param probeTimeout         how long a health check may take
 * @param replicas             extra copies of each write on the next distinct servers of the ring
 * @param naming               how servers are named on the Ketama ring
 * @param failbackFlushAfter   a failed server that answers again is flushed before it rejoins if it
 *                             was failed at least this long; {@code null} never flushes
 */
public record ClusterSettings(boolean failover, int failureThreshold, Duration firstProbeDelay, Duration maxProbeDelay,
        Duration probeTimeout, int replicas, KetamaNaming naming, Duration failbackFlushAfter) {

    public ClusterSettings {
        if (failureThreshold < 1) {
            throw new IllegalArgumentException("failureThreshold must be >= 1, was " + failureThreshold);
        }
        if (replicas < 0) {
            throw new IllegalArgumentException("replicas must be >= 0, was " + replicas);
        }
        if (firstProbeDelay.compareTo(maxProbeDelay) > 0) {
            throw new IllegalArgumentException("the first health-check delay " + firstProbeDelay
                    + " is longer than the longest " + maxProbeDelay);
        }
    }
}
