package dev.grizzlyboot.memcached.zookeeper;

import java.util.List;

/**
 * A snapshot of one member's view of the coordinated server list, for health checks, metrics and
 * tests. Immutable; get a fresh one from {@link ZooKeeperServerListSync#state()}.
 *
 * @param memberId          this member's id (its znode name under {@code members})
 * @param connected         whether the ZooKeeper connection is up right now
 * @param version           the version of the server list in use (0 before the first one is adopted)
 * @param servers           the server list in use
 * @param appliedAtMillis   when this member switched to {@code version} (its own wall clock; 0 if never)
 * @param committedVersion  the {@code committed} znode's version, as last read (0 if none)
 * @param proposedVersion   the latest proposal's version, as last read (equals the committed one
 *                          when no change is open)
 * @param proposedServers   the latest proposal's server list
 * @param phase             where this member is with the latest proposal
 * @param commitAtMillis    T of the latest commit decision seen, or of the recorded commit this
 *                          member adopted without hearing its decision (epoch millis; 0 if not
 *                          known: the first list, or a record from a member built before records
 *                          carried T)
 * @param lastError         the last failure talking to ZooKeeper, reading a znode or preparing a
 *                          list, or {@code null}
 * @param clockOffsetMillis ZooKeeper's clock minus this member's clock, measured from the creation
 *                          time of a znode this member wrote (0 until measured)
 * @param clockOffsetErrorMillis how far the offset may be off (half the round trip of that write)
 */
public record SyncState(String memberId, boolean connected, long version, List<String> servers, long appliedAtMillis,
        long committedVersion, long proposedVersion, List<String> proposedServers, Phase phase, long commitAtMillis,
        Throwable lastError, long clockOffsetMillis, long clockOffsetErrorMillis) {

    /**
     * Copies the lists, so that the snapshot does not change with them.
     *
     * @param memberId this member's id
     * @param connected whether ZooKeeper is connected
     * @param version the version in use
     * @param servers the servers in use, copied
     * @param appliedAtMillis when {@code version} was applied, or 0
     * @param committedVersion the committed version last read
     * @param proposedVersion the latest proposal's version
     * @param proposedServers the latest proposal's servers, copied
     * @param phase this member's phase
     * @param commitAtMillis the latest commit's switch time, or 0
     * @param lastError the last failure, or {@code null}
     * @param clockOffsetMillis ZooKeeper's clock minus this member's
     * @param clockOffsetErrorMillis the offset's error bound
     */
    public SyncState {
        servers = List.copyOf(servers);
        proposedServers = List.copyOf(proposedServers);
    }

    /** Where a member is with the latest proposal. */
    public enum Phase {
        /** Not yet read the shared list (ZooKeeper not reached yet, or waiting for a remote list). */
        JOINING,
        /** The latest proposal is in use; no change is open. */
        IN_SYNC,
        /** The proposed list is built and acknowledged; waiting for the decision. */
        PREPARED,
        /** Commit decided: the member switches at {@code commitAtMillis}. */
        COMMIT_SCHEDULED,
        /** The latest proposal was aborted; the committed list stays in use. */
        ABORTED
    }
}
