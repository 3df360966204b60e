package dev.grizzlyboot.autoconfigure.memcached.endpoint;

import java.time.Instant;
import java.util.List;

import dev.grizzlyboot.memcached.zookeeper.ClusterView;
import dev.grizzlyboot.memcached.zookeeper.ServerListConflictException;
import dev.grizzlyboot.memcached.zookeeper.ServerListSyncException;
import dev.grizzlyboot.memcached.zookeeper.SyncState;
import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * The {@link CoordinatedServerList} of a {@link ZooKeeperServerListSync}: its state, what
 * ZooKeeper holds now, and proposals through it. Kept apart from the endpoint so that the endpoint
 * loads without the ZooKeeper module on the class path. Thread-safe.
 */
final class ZooKeeperCoordinatedServerList implements CoordinatedServerList {

    private static final String NOT_CONNECTED = "this member is not connected to ZooKeeper";

    private final ZooKeeperServerListSync sync;

    ZooKeeperCoordinatedServerList(ZooKeeperServerListSync sync) {
        this.sync = sync;
    }

    @Override
    public OperationResponseBody describe() {
        SyncState state = sync.state();
        ClusterDescriptor cluster = null;
        String error = state.lastError() != null ? state.lastError().toString() : null;
        // Disconnected, a read would block the actuator thread through Curator's retries and then fail anyway.
        if (!state.connected()) {
            error = NOT_CONNECTED;
        } else {
            try {
                cluster = ClusterDescriptor.of(sync.readCluster());
            } catch (RuntimeException e) {
                error = e.getMessage();
            }
        }
        return new ZooKeeperDescriptor(state.memberId(), state.connected(), state.phase().name(), state.version(),
                state.servers(), instant(state.appliedAtMillis()), instant(state.commitAtMillis()),
                state.committedVersion(), cluster, error);
    }

    @Override
    public long propose(List<String> servers, long expectedVersion) {
        // As in describe(): fail at once rather than after Curator's retries.
        if (!sync.state().connected()) {
            throw new ServerListSyncException(NOT_CONNECTED + "; nothing was proposed");
        }
        try {
            return sync.proposeServers(servers, expectedVersion);
        } catch (ServerListConflictException e) {
            throw new ServerListVersionConflictException(e.getMessage(), currentVersion(), e);
        }
    }

    private long currentVersion() {
        try {
            return sync.readCluster().committedVersion();
        } catch (RuntimeException e) {
            return sync.state().committedVersion();
        }
    }

    private static Instant instant(long millis) {
        return millis == 0 ? null : Instant.ofEpochMilli(millis);
    }

    /**
     * This member's view and ZooKeeper's.
     *
     * @param memberId         this instance's member id
     * @param connected        whether its ZooKeeper connection is up
     * @param phase            where it is with the latest proposal
     * @param version          the version of the list in use
     * @param servers          the list in use
     * @param appliedAt        when this instance switched to it
     * @param commitAt         T of the latest commit (the same on every instance)
     * @param committedVersion the committed version as last read
     * @param zookeeper        what ZooKeeper holds now; {@code null} when it could not be read
     * @param error            why ZooKeeper could not be read, or the sync's last error
     */
    record ZooKeeperDescriptor(String memberId, boolean connected, String phase, long version, List<String> servers,
            Instant appliedAt, Instant commitAt, long committedVersion, ClusterDescriptor zookeeper, String error)
            implements OperationResponseBody {
    }

    /**
     * The cluster in ZooKeeper.
     *
     * @param committedVersion the committed version
     * @param committedServers the committed list
     * @param committedAt      T at which the members switched to it, from the committed record;
     *                         {@code null} for a seed list or none
     * @param members          the live members
     * @param registered       whether this instance is one of them
     * @param barrier          the change in progress, or {@code null}
     */
    record ClusterDescriptor(long committedVersion, List<String> committedServers, Instant committedAt,
            List<String> members, boolean registered, BarrierDescriptor barrier) {

        static ClusterDescriptor of(ClusterView view) {
            ClusterView.Barrier barrier = view.barrier();
            return new ClusterDescriptor(view.committedVersion(), view.committedServers(),
                    instant(view.committedAtMillis()), view.members(),
                    view.registered(), barrier == null ? null : new BarrierDescriptor(barrier.version(),
                            barrier.servers(), barrier.acks(), view.members().size(), instant(barrier.prepareByMillis()),
                            barrier.decision(), instant(barrier.commitAtMillis())));
        }
    }

    /**
     * A change in progress.
     *
     * @param version   the proposal's version
     * @param servers   the proposed list
     * @param acks      the members that acknowledged it
     * @param members   how many live members must
     * @param prepareBy the deadline for acknowledgements
     * @param decision  pending, commit or abort
     * @param commitAt  T of a commit decision
     */
    record BarrierDescriptor(long version, List<String> servers, List<String> acks, int members, Instant prepareBy,
            String decision, Instant commitAt) {
    }
}
