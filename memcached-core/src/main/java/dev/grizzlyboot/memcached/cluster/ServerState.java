package dev.grizzlyboot.memcached.cluster;

import java.time.Instant;

/**
 * A snapshot of one server's health as the client sees it. Immutable.
 *
 * @param server    the server
 * @param status    {@link Status#ACTIVE} or {@link Status#FAILED}
 * @param since     when the server entered this status
 * @param lastError the error that marked it failed, or the latest one seen; {@code null} if none
 */
public record ServerState(ServerAddress server, Status status, Instant since, Exception lastError) {

    /** Whether a server takes traffic. */
    public enum Status {
        /** In the ring and taking traffic. */
        ACTIVE,
        /** Marked failed after consecutive connect failures or timeouts; probed until it answers. */
        FAILED
    }

    /**
     * Whether the server is marked failed.
     *
     * @return {@code true} if the status is {@link Status#FAILED}
     */
    public boolean failed() {
        return status == Status.FAILED;
    }
}
