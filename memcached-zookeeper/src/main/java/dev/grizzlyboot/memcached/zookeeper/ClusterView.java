package dev.grizzlyboot.memcached.zookeeper;

import java.util.List;

/**
 * What ZooKeeper holds for one cluster right now, read fresh by
 * {@link ZooKeeperServerListSync#readCluster()} for health checks and monitoring pages: this
 * member's session and registration, the live members, the committed list and the change in
 * progress, if any. Immutable.
 *
 * @param sessionId        this member's ZooKeeper session id
 * @param registered       whether this member's node exists and belongs to that session
 * @param members          the ids of the live members
 * @param committedVersion the committed list's version (0 if none yet)
 * @param committedServers the committed list
 * @param committedAtMillis T at which the members switched to the committed list (epoch millis); 0
 *                         for none yet, a seed list, or a record written before records carried T
 * @param barrier          the change in progress, or {@code null} when none is open
 */
public record ClusterView(long sessionId, boolean registered, List<String> members, long committedVersion,
        List<String> committedServers, long committedAtMillis, Barrier barrier) {

    /**
     * Copies the lists, so that the view does not change with them.
     *
     * @param sessionId this member's session id
     * @param registered whether this member is registered in that session
     * @param members the live members' ids, copied
     * @param committedVersion the committed version, or 0
     * @param committedServers the committed servers, copied
     * @param committedAtMillis the committed list's switch time (epoch millis), or 0
     * @param barrier the open change, or {@code null}
     */
    public ClusterView {
        members = List.copyOf(members);
        committedServers = List.copyOf(committedServers);
    }

    /**
     * A proposed list that is not committed yet: who has acknowledged it and what was decided.
     *
     * @param version         the proposal's version
     * @param servers         the proposed list
     * @param acks            the ids of the members that acknowledged it
     * @param prepareByMillis until when every live member must acknowledge (epoch millis)
     * @param decision        {@code "pending"}, {@code "commit"} or {@code "abort"}
     * @param commitAtMillis  T of a commit decision (epoch millis); 0 otherwise
     */
    public record Barrier(long version, List<String> servers, List<String> acks, long prepareByMillis, String decision,
            long commitAtMillis) {

        /**
         * Copies the lists, so that the barrier does not change with them.
         *
         * @param version the proposal's version
         * @param servers the proposed servers, copied
         * @param acks the acknowledging members' ids, copied
         * @param prepareByMillis the acknowledgement deadline (epoch millis)
         * @param decision the decision so far
         * @param commitAtMillis the switch time of a commit (epoch millis), or 0
         */
        public Barrier {
            servers = List.copyOf(servers);
            acks = List.copyOf(acks);
        }
    }
}
