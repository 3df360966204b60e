package dev.grizzlyboot.memcached.zookeeper;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link MemcachedClient}'s server list in step with every other client of the same
 * cluster through ZooKeeper, so that all of them switch to a new list at the same moment and never
 * disagree about where a key lives. The client joins as a member, adopts the committed list (or
 * seeds it with its own), and takes part in every change: {@link #proposeServers} starts a
 * two-phase barrier (every live member prepares the new ring and acknowledges; one decision node
 * says "commit at T" or "abort"; every member switches at T by its own clock).
 *
 * <pre>{@code
 * ZooKeeperServerListSync sync = ZooKeeperServerListSync.builder()
 *         .connectString("zk1:2181,zk2:2181")
 *         .clusterName("sessions")
 *         .start(client);
 * sync.proposeServers(List.of("10.0.0.1:11211", "10.0.0.2:11211"), sync.state().version());
 * }</pre>
 *
 * <p>While ZooKeeper is unreachable the client keeps serving from its current list. Thread-safe.
 * Closing the sync leaves the cluster (deletes its member node) but not the memcached client.
 */
public final class ZooKeeperServerListSync implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperServerListSync.class);

    private final BarrierMember member;
    private final ClusterInspector inspector;
    private final CuratorFramework ownedCurator;
    /** {@code null} without a meter registry. */
    private final SyncMeters meters;

    private ZooKeeperServerListSync(BarrierMember member, ClusterInspector inspector, CuratorFramework ownedCurator,
            SyncMeters meters) {
        this.member = member;
        this.inspector = inspector;
        this.ownedCurator = ownedCurator;
        this.meters = meters;
    }

    /**
     * A builder; a connect string or a Curator client is the only required setting.
     *
     * @return a new builder with the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Proposes a new server list to every member. Returns once the proposal is written, with its
     * version; the members then prepare, decide and switch on their own ({@link #state()} shows
     * the progress). A proposal that no live member can acknowledge in time is aborted.
     *
     * @param servers         {@code host:port} strings (each may hold a comma-separated list)
     * @param expectedVersion the committed version the proposal is based on, usually
     *                        {@code state().version()}; 0 when the cluster has no list yet
     * @return the proposal's version
     * @throws IllegalArgumentException     if the list is empty or holds something that is not a server address
     * @throws ServerListConflictException  if the committed version differs, another change is open,
     *                                      or a concurrent proposal won
     * @throws ServerListSyncException      if ZooKeeper could not be reached or failed
     */
    public long proposeServers(List<String> servers, long expectedVersion) {
        List<String> canonical = BarrierMember.canonical(ServerAddress.parseAll(servers));
        if (canonical.isEmpty()) {
            throw new IllegalArgumentException("a server list needs at least one server");
        }
        if (canonical.stream().distinct().count() != canonical.size()) {
            throw new IllegalArgumentException("server list has duplicates: " + canonical);
        }
        return member.propose(canonical, expectedVersion);
    }

    /**
     * A snapshot of this member's state: versions, phase, decision, last error, clock offset.
     *
     * @return the state as this member last saw it; no ZooKeeper read
     */
    public SyncState state() {
        return member.state();
    }

    /**
     * Reads the cluster from ZooKeeper now: this member's session and registration, the live
     * members, the committed list and the change in progress with its acknowledgements. A few
     * blocking ZooKeeper reads, apart from the sync's own work; for health checks and monitoring.
     *
     * @return what ZooKeeper holds now
     * @throws ServerListSyncException if ZooKeeper could not be reached or failed
     */
    public ClusterView readCluster() {
        try {
            return inspector.read();
        } catch (Exception e) {
            throw new ServerListSyncException("could not read the cluster from ZooKeeper: " + e, e);
        }
    }

    /**
     * Leaves the cluster: deletes the member node (so no later barrier waits for it) and closes
     * the ZooKeeper client if this sync created it. The memcached client keeps its current list.
     */
    @Override
    public void close() {
        member.close();
        if (meters != null) {
            meters.close();
        }
        if (ownedCurator != null) {
            ownedCurator.close();
        }
    }

    /** Options of a {@link ZooKeeperServerListSync}; not thread-safe, use from one thread. */
    public static final class Builder {

        private String connectString;
        private CuratorFramework curator;
        private String rootPath = "/grizzly-memcached";
        private String clusterName = "default";
        private String memberId;
        private Duration commitDelay = Duration.ofSeconds(5);
        private Duration prepareTimeout = Duration.ofSeconds(30);
        private Duration sessionTimeout = Duration.ofSeconds(10);
        private Duration connectionTimeout = Duration.ofSeconds(5);
        private boolean preferRemoteList;
        private Consumer<SyncState> onApplied;
        /** Typed as Object so that this class never names a Micrometer type unless a registry is given. */
        private Object meterRegistry;

        private Builder() {
        }

        /**
         * ZooKeeper servers, {@code host:port[,host:port...]}; the sync creates and owns its Curator client.
         *
         * @param connectString the ZooKeeper ensemble, as Curator takes it
         * @return this builder
         */
        public Builder connectString(String connectString) {
            this.connectString = connectString;
            return this;
        }

        /**
         * A started Curator client the caller owns (and closes); use it instead of
         * {@link #connectString} to share one ZooKeeper session. Its session timeout should be
         * shorter than the prepare timeout.
         *
         * @param curator a started client, left open by {@link ZooKeeperServerListSync#close()}
         * @return this builder
         */
        public Builder curator(CuratorFramework curator) {
            this.curator = curator;
            return this;
        }

        /**
         * Parent znode of all clusters; default {@code /grizzly-memcached}.
         *
         * @param rootPath an absolute znode path
         * @return this builder
         */
        public Builder rootPath(String rootPath) {
            this.rootPath = rootPath;
            return this;
        }

        /**
         * The cluster's name (its znode under the root); default {@code default}.
         *
         * @param clusterName the name shared by the clients of one memcached cluster
         * @return this builder
         */
        public Builder clusterName(String clusterName) {
            this.clusterName = clusterName;
            return this;
        }

        /**
         * This member's id, unique among live members; default {@code host-pid-random}.
         *
         * @param memberId the id (a valid znode name)
         * @return this builder
         */
        public Builder memberId(String memberId) {
            this.memberId = memberId;
            return this;
        }

        /**
         * Time from the commit decision to the switch; default 5 s. It must cover the slowest
         * member's notification of the decision and the clock differences between members.
         *
         * @param commitDelay the delay between the decision and the switch
         * @return this builder
         */
        public Builder commitDelay(Duration commitDelay) {
            this.commitDelay = commitDelay;
            return this;
        }

        /**
         * How long after a proposal every live member must have acknowledged it before it is
         * aborted; default 30 s. Longer than the session timeout, so that a crashed member's
         * session expires (dropping it from the wait) before the change is given up.
         *
         * @param prepareTimeout the time the members have to acknowledge
         * @return this builder
         */
        public Builder prepareTimeout(Duration prepareTimeout) {
            this.prepareTimeout = prepareTimeout;
            return this;
        }

        /**
         * ZooKeeper session timeout (with {@link #connectString}); default 10 s.
         *
         * @param sessionTimeout the session timeout asked of ZooKeeper
         * @return this builder
         */
        public Builder sessionTimeout(Duration sessionTimeout) {
            this.sessionTimeout = sessionTimeout;
            return this;
        }

        /**
         * How long {@code start} waits to connect and adopt the shared list; default 5 s.
         *
         * @param connectionTimeout the longest {@code start} blocks
         * @return this builder
         */
        public Builder connectionTimeout(Duration connectionTimeout) {
            this.connectionTimeout = connectionTimeout;
            return this;
        }

        /**
         * When ZooKeeper holds no list yet: {@code false} (default) seeds it with the client's
         * list; {@code true} keeps the local list and waits for one to be proposed.
         *
         * @param preferRemoteList {@code true} to wait for a proposed list rather than seed one
         * @return this builder
         */
        public Builder preferRemoteList(boolean preferRemoteList) {
            this.preferRemoteList = preferRemoteList;
            return this;
        }

        /**
         * Called (on the sync's thread; must not block) each time the client switches to a list.
         *
         * @param onApplied receives the state right after each switch
         * @return this builder
         */
        public Builder onApplied(Consumer<SyncState> onApplied) {
            this.onApplied = onApplied;
            return this;
        }

        /**
         * Publishes this member's meters to {@code registry} (default: none; Micrometer is an optional
         * dependency): {@code memcached.zookeeper.switches}, {@code memcached.zookeeper.commit.skew}
         * and {@code memcached.zookeeper.clock.offset}, tagged with the cluster name, removed by
         * {@link ZooKeeperServerListSync#close()}.
         *
         * @param registry where the meters are registered
         * @return this builder
         */
        public Builder meterRegistry(MeterRegistry registry) {
            this.meterRegistry = Objects.requireNonNull(registry, "meterRegistry");
            return this;
        }

        /**
         * Attaches to {@code client}: connects, registers this member and adopts the shared list,
         * waiting up to the connection timeout. If ZooKeeper is not reachable in that time the
         * client keeps its own list and the sync goes on trying in the background.
         *
         * @param client the client whose server list is kept in step
         * @return the running sync; close it to leave the cluster
         * @throws IllegalArgumentException if an option is invalid
         */
        public ZooKeeperServerListSync start(MemcachedClient client) {
            Objects.requireNonNull(client, "client");
            if ((connectString == null) == (curator == null)) {
                throw new IllegalArgumentException("set exactly one of connectString and curator");
            }
            SyncSettings settings = new SyncSettings(rootPath, clusterName,
                    memberId != null ? memberId : defaultMemberId(), commitDelay, prepareTimeout, sessionTimeout,
                    connectionTimeout, preferRemoteList);
            if (connectString != null && prepareTimeout.compareTo(sessionTimeout) <= 0) {
                throw new IllegalArgumentException("prepare timeout " + prepareTimeout
                        + " must be longer than the session timeout " + sessionTimeout
                        + ", or a crashed member aborts every change it was part of");
            }
            CuratorFramework owned = null;
            CuratorFramework zk = curator;
            if (connectString != null) {
                owned = CuratorFrameworkFactory.builder()
                        .connectString(connectString)
                        .sessionTimeoutMs(SyncSettings.intMillis("session timeout", sessionTimeout))
                        .connectionTimeoutMs(SyncSettings.intMillis("connection timeout", connectionTimeout))
                        .retryPolicy(new ExponentialBackoffRetry(100, 3, 1000))
                        .build();
                owned.start();
                zk = owned;
            }
            SyncMeters meters = meterRegistry == null ? null : SyncMeters.of(meterRegistry, clusterName);
            Consumer<SyncState> applied = meters == null ? onApplied
                    : onApplied == null ? meters : meters.andThen(onApplied);
            BarrierMember member = new BarrierMember(client, zk, settings, applied);
            if (meters != null) {
                meters.watchClockOffset(member::state);
            }
            try {
                if (!member.start(connectionTimeout.toMillis())) {
                    log.warn("member {} has not joined cluster {} within {}; serving its own list until it does",
                            settings.memberId(), clusterName, connectionTimeout);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new ZooKeeperServerListSync(member, new ClusterInspector(zk, settings), owned, meters);
        }

        private static String defaultMemberId() {
            String host;
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "member";
            }
            return host.replace('/', '_') + "-" + ProcessHandle.current().pid() + "-"
                    + UUID.randomUUID().toString().substring(0, 8);
        }
    }
}
