package dev.grizzlyboot.memcached.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerListChange;
import dev.grizzlyboot.memcached.zookeeper.SyncState.Phase;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's side of the protocol. All ZooKeeper reads and reactions run as one idempotent
 * {@link #reconcile()} on a single worker thread: any watch event, reconnect or deadline just asks
 * for another pass (requests while one is queued coalesce), so a missed event or a new session
 * never leaves the member behind. A pass reads only what it needs and watches only the nodes
 * whose next change it must react to (see {@link Znodes}), so one change costs each member a
 * constant number of requests and watch events, however many members there are. Switching at T
 * runs on a separate timer thread so that a slow ZooKeeper call cannot delay it.
 *
 * <p>Thread-safe: the member's state is guarded by {@code lock}, never held during ZooKeeper calls;
 * what only the worker thread touches is marked so.
 */
final class BarrierMember implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BarrierMember.class);
    private static final long RETRY_MILLIS = 250;
    /** The longest wait between retries of a pass that keeps failing, e.g. on a znode edited by hand. */
    private static final long MAX_RETRY_MILLIS = 4_000;
    private static final long SKEW_WARNING_MILLIS = 100;

    private final MemcachedClient client;
    private final CuratorFramework curator;
    private final SyncSettings settings;
    private final Znodes znodes;
    private final Consumer<SyncState> onApplied;
    private final ScheduledExecutorService worker;
    private final ScheduledExecutorService timer;
    private final AtomicBoolean reconcileQueued = new AtomicBoolean();
    private final CountDownLatch joined = new CountDownLatch(1);
    private final Watcher watcher = this::nodeChanged;
    private final ConnectionStateListener connectionListener = this::connectionChanged;

    private final Object lock = new Object();
    private long version;
    private List<String> servers;
    private long appliedAtMillis;
    private long committedVersion;
    private ServerList proposed;
    private Phase phase = Phase.JOINING;
    private long commitAtMillis;
    private Pending pending;
    private Throwable lastError;
    private long clockOffsetMillis;
    private long clockOffsetErrorMillis;
    private volatile boolean connected;
    private volatile boolean closed;

    private final AtomicBoolean checkStructure = new AtomicBoolean(true);
    // Written by the worker thread only; close() reads it after the worker stopped.
    private volatile long registeredSession;
    // Worker thread only: what this member already did, so that a pass does not ask ZooKeeper again.
    private boolean memberNodeMayBeGone;
    private int failuresInARow;
    private long ackedVersion;
    private long ackedSession;
    private boolean watchingMembers;
    private long decidedVersion;
    private Decision decided;
    // The version whose commit this member decided, and so records at T (read by the timer thread).
    private volatile long recordsVersion;

    BarrierMember(MemcachedClient client, CuratorFramework curator, SyncSettings settings, Consumer<SyncState> onApplied) {
        this.client = client;
        this.curator = curator;
        this.settings = settings;
        this.znodes = new Znodes(curator, settings.rootPath(), settings.clusterName(), watcher);
        this.onApplied = onApplied;
        this.servers = canonical(client.servers());
        this.worker = Executors.newSingleThreadScheduledExecutor(daemon("grizzly-zk-sync-" + settings.clusterName()));
        this.timer = Executors.newSingleThreadScheduledExecutor(daemon("grizzly-zk-commit-" + settings.clusterName()));
    }

    /** Starts watching and joining; waits up to {@code joinWait} for the shared list to be adopted. */
    boolean start(long joinWaitMillis) throws InterruptedException {
        curator.getConnectionStateListenable().addListener(connectionListener);
        connected = curator.getZookeeperClient().isConnected();
        requestReconcile();
        return joined.await(joinWaitMillis, TimeUnit.MILLISECONDS);
    }

    SyncState state() {
        synchronized (lock) {
            return snapshot();
        }
    }

    /** Writes a proposal (version-checked) and opens its barrier in one transaction. */
    long propose(List<String> newServers, long expectedVersion) {
        ServerList latest;
        ServerList committed;
        Stat serversStat = new Stat();
        try {
            committed = znodes.committed(null);
            latest = znodes.latest(serversStat);
            if (committed == null) {
                return seed(newServers, expectedVersion);
            }
            if (latest == null) {
                throw new ServerListSyncException(znodes.serversPath() + " is missing although " + znodes.committedPath()
                        + " exists; was it deleted by hand?");
            }
            if (committed.version() != expectedVersion) {
                throw new ServerListConflictException("expected committed version " + expectedVersion
                        + " but it is " + committed.version(), expectedVersion);
            }
            if (latest.version() > committed.version()) {
                Decision decision = znodes.decision(latest.version());
                if (decision == null || decision.commit()) {
                    throw new ServerListConflictException("change " + latest.version()
                            + " is still in progress; propose again once it is committed or aborted", expectedVersion);
                }
            }
            // Past both: a committed version above the latest proposal (written by hand or a
            // tool) would otherwise get a proposal that every member ignores as already behind.
            long next = Math.max(latest.version(), committed.version()) + 1;
            znodes.propose(new ServerList(next, newServers,
                    System.currentTimeMillis() + settings.prepareTimeout().toMillis()), serversStat.getVersion());
            log.info("member {} proposed servers version {}: {}", settings.memberId(), next, newServers);
            requestReconcile();
            return next;
        } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException e) {
            throw new ServerListConflictException("a concurrent proposal based on version " + expectedVersion
                    + " was written first", expectedVersion);
        } catch (ServerListSyncException e) {
            throw e;
        } catch (Exception e) {
            throw new ServerListSyncException("could not propose servers " + newServers + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        closed = true;
        curator.getConnectionStateListenable().removeListener(connectionListener);
        worker.shutdownNow();
        timer.shutdownNow();
        try {
            worker.awaitTermination(settings.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (lock) {
            discardPending();
        }
        if (curator.getZookeeperClient().isConnected()) {
            try {
                znodes.unwatchAll(state().proposedVersion());
            } catch (Exception e) {
                log.debug("could not remove the watches below {}", znodes.clusterPath(), e);
            }
        }
        try {
            Stat stat = znodes.member(settings.memberId());
            if (stat != null && stat.getEphemeralOwner() == registeredSession) {
                znodes.deleteMember(settings.memberId(), stat.getVersion());
            }
        } catch (Exception e) {
            try {
                // ZooKeeper is away: a guaranteed delete keeps trying in the background, so this
                // member never blocks a later barrier even if the session outlives it.
                znodes.deleteMember(settings.memberId(), true);
            } catch (Exception again) {
                log.warn("could not delete member node of {}; it goes when the session ends", settings.memberId(), again);
            }
        }
    }

    // ---- the reconcile pass ---------------------------------------------------------------------

    private void requestReconcile() {
        if (!closed && reconcileQueued.compareAndSet(false, true)) {
            try {
                worker.execute(this::reconcileSafely);
            } catch (RejectedExecutionException e) {
                reconcileQueued.set(false);
            }
        }
    }

    private void requestReconcileIn(long delayMillis) {
        if (!closed) {
            try {
                worker.schedule(this::requestReconcile, Math.max(0, delayMillis), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // closing
            }
        }
    }

    private void reconcileSafely() {
        reconcileQueued.set(false);
        if (closed || !curator.getZookeeperClient().isConnected()) {
            return; // a reconnect asks again
        }
        try {
            reconcile();
            failuresInARow = 0;
        } catch (Exception e) {
            if (closed) {
                return;
            }
            if (e instanceof KeeperException.NoNodeException) {
                // A node of the tree was deleted by hand while this member ran: rebuild and re-register.
                checkStructure.set(true);
                memberNodeMayBeGone = true;
            }
            boolean repeated;
            synchronized (lock) {
                repeated = lastError != null && String.valueOf(lastError.getMessage()).equals(e.getMessage());
                lastError = e;
            }
            if (repeated) {
                log.debug("member {}: ZooKeeper sync failed again, retrying: {}", settings.memberId(), e.toString());
            } else {
                log.warn("member {}: ZooKeeper sync failed, retrying: {}", settings.memberId(), e.toString());
            }
            // Doubling: a fault that persists (a bad znode waits for a person) costs ZooKeeper a
            // few requests per member, not four a second; a watch event still brings a pass at once.
            requestReconcileIn(Math.min(MAX_RETRY_MILLIS, RETRY_MILLIS << Math.min(failuresInARow++, 4)));
        }
    }

    private void reconcile() throws Exception {
        ensureStructure();
        Stat committedStat = new Stat();
        ServerList committed = znodes.committed(committedStat);
        ServerList latest = znodes.latest(null);
        if (committed == null) {
            // Never seeded, or deleted by hand with the rest of the tree, this member's node included.
            memberNodeMayBeGone = true;
            if (!settings.preferRemoteList()) {
                seedFromLocalList();
            }
            return;
        }
        synchronized (lock) {
            committedVersion = committed.version();
            proposed = latest;
        }
        catchUp(committed);
        ensureMember();
        joined.countDown();
        if (latest == null || latest.version() <= committed.version()) {
            stopWatchingMembers();
            synchronized (lock) {
                if (pending != null && pending.version <= committed.version()) {
                    discardPending();
                }
                phase = Phase.IN_SYNC;
            }
            return;
        }
        Decision decision = decision(latest.version());
        if (decision == null) {
            if (prepare(latest)) {
                synchronized (lock) {
                    phase = Phase.PREPARED;
                }
                acknowledge(latest.version());
            }
            decideIfDue(latest);
            return;
        }
        stopWatchingMembers();
        if (decision.commit()) {
            scheduleCommit(latest, decision);
            writeCommittedIfApplied(latest, decision, committedStat);
        } else {
            synchronized (lock) {
                discardPending();
                phase = Phase.ABORTED;
            }
        }
    }

    /** Once the barrier is decided, who joins or leaves no longer matters to it: a join costs the others nothing. */
    private void stopWatchingMembers() throws Exception {
        if (watchingMembers) {
            znodes.unwatchMembers();
            watchingMembers = false;
        }
    }

    /** The decision of barrier {@code version}: read once, as it never changes once made. */
    private Decision decision(long version) throws Exception {
        if (decidedVersion != version) {
            Decision read = znodes.decision(version);
            if (read == null) {
                return null;
            }
            decided = read;
            decidedVersion = version;
        }
        return decided;
    }

    private void ensureStructure() throws Exception {
        // Once per connection, as the original watch set-up did: cheap, and it repairs a tree deleted by hand.
        if (!checkStructure.getAndSet(false)) {
            return;
        }
        try {
            znodes.createParents();
        } catch (Exception e) {
            checkStructure.set(true);
            throw e;
        }
    }

    private void seedFromLocalList() throws Exception {
        ServerList seed;
        synchronized (lock) {
            // With the version in use, not 1: after the tree was deleted by hand, a seed below it
            // would make the next proposal a version this member ignores as already behind.
            seed = new ServerList(Math.max(1, version), servers, 0);
        }
        List<String> local = seed.servers();
        try {
            znodes.createParents();
            znodes.seed(seed);
            log.info("member {} seeded cluster {} with its local servers {}", settings.memberId(),
                    settings.clusterName(), local);
        } catch (KeeperException.NodeExistsException e) {
            // another member seeded first; adopt theirs
        }
        requestReconcile();
    }

    private long seed(List<String> newServers, long expectedVersion) throws Exception {
        if (expectedVersion != 0) {
            throw new ServerListConflictException("expected committed version " + expectedVersion
                    + " but the cluster has no committed list yet (expect 0)", expectedVersion);
        }
        ServerList seed = new ServerList(1, newServers, 0);
        znodes.createParents();
        znodes.seed(seed);
        requestReconcile();
        return 1;
    }

    private void ensureMember() throws Exception {
        long session = curator.getZookeeperClient().getZooKeeper().getSessionId();
        if (registeredSession == session && !memberNodeMayBeGone) {
            return; // the node lives as long as this session
        }
        Stat existing = znodes.member(settings.memberId());
        if (existing != null && existing.getEphemeralOwner() == session) {
            registeredSession = session;
            memberNodeMayBeGone = false;
            return;
        }
        if (existing != null) {
            if (existing.getEphemeralOwner() != registeredSession) {
                throw new ServerListSyncException("member id " + settings.memberId()
                        + " is registered by another session; member ids must be unique");
            }
            // Left over from this member's previous session, which the server has not expired yet.
            znodes.deleteMember(settings.memberId(), false);
        }
        // The node's owner, not the session read before: Curator may have switched sessions in between.
        byte[] joinedAt = ("joined-at=" + System.currentTimeMillis() + "\n").getBytes(StandardCharsets.UTF_8);
        registeredSession = measuringClock(() -> znodes.createMember(settings.memberId(), joinedAt));
        memberNodeMayBeGone = false;
        log.info("member {} registered in cluster {} (session 0x{})", settings.memberId(), settings.clusterName(),
                Long.toHexString(registeredSession));
    }

    /** Adopts the committed list at once when this member is behind it (it joined, or was away). */
    private void catchUp(ServerList committed) {
        SyncState applied = null;
        synchronized (lock) {
            if (version >= committed.version()) {
                return;
            }
            if (pending != null && pending.version == committed.version()) {
                if (pending.commitAtMillis == 0) {
                    pending.commitAtMillis = committed.commitAtMillis();
                }
                applied = applyPending(pending, "the committed node already shows it");
            } else {
                try {
                    client.setServers(committed.servers());
                } catch (IllegalArgumentException e) {
                    // Not a list a member wrote (it was checked when proposed): the client keeps its current list.
                    throw new UnreadableZnodeException(znodes.committedPath(), "servers", e.getMessage());
                }
                markApplied(committed.version(), committed.servers(), committed.commitAtMillis());
                if (pending != null && pending.version <= committed.version()) {
                    discardPending();
                }
                log.info("member {} adopted committed servers version {}: {}", settings.memberId(),
                        committed.version(), committed.servers());
                applied = snapshot();
            }
        }
        notifyApplied(applied);
    }

    /** Builds the proposed ring (once per version); false if it cannot be built. */
    private boolean prepare(ServerList latest) {
        synchronized (lock) {
            try {
                pendingFor(latest);
                return true;
            } catch (RuntimeException e) {
                lastError = e;
                log.warn("member {} cannot prepare servers version {} of {}: {}", settings.memberId(),
                        latest.version(), znodes.serversPath(), e.toString());
                return false;
            }
        }
    }

    private void acknowledge(long proposal) throws Exception {
        if (ackedVersion == proposal && ackedSession == registeredSession) {
            return;
        }
        try {
            ackedSession = measuringClock(() -> znodes.createAck(proposal, settings.memberId()));
            ackedVersion = proposal;
        } catch (KeeperException.NodeExistsException e) {
            Stat existing = znodes.ack(proposal, settings.memberId());
            if (existing != null && existing.getEphemeralOwner() == registeredSession) {
                ackedSession = registeredSession; // made by this session, whose reply was lost
                ackedVersion = proposal;
            } else {
                requestReconcileIn(RETRY_MILLIS); // an old session's ack: it goes with that session
            }
        } catch (KeeperException.NoNodeException e) {
            // the barrier was cleaned up because a newer change superseded it
            requestReconcileIn(RETRY_MILLIS);
        }
    }

    /**
     * Creates the decision once everybody acknowledged, or an abort past the deadline. Every member
     * checks right after acknowledging; ZooKeeper orders the acknowledgements, so the last one's
     * check sees them all. While some are missing the member watches {@code members}: a member
     * leaving (its session ending) may complete the barrier without a new acknowledgement.
     */
    private void decideIfDue(ServerList latest) throws Exception {
        List<String> members = znodes.members();
        watchingMembers = true;
        List<String> acks = znodes.acks(latest.version());
        long now = System.currentTimeMillis();
        Decision decision;
        if (!members.isEmpty() && acks.containsAll(members)) {
            decision = Decision.commitAt(now + settings.commitDelay().toMillis(), settings.memberId());
        } else {
            long deadline = latest.prepareByMillis();
            if (now < deadline) {
                requestReconcileIn(deadline - now + 1);
                return;
            }
            List<String> missing = members.stream().filter(member -> !acks.contains(member)).toList();
            decision = Decision.abort(settings.memberId(),
                    "no acknowledgement from " + missing + " by the prepare deadline");
        }
        // The decision node is watched (the pass read it as missing), so its creation brings the next pass.
        if (znodes.decide(latest.version(), decision)) {
            decided = decision;
            decidedVersion = latest.version();
            if (decision.commit()) {
                recordsVersion = latest.version();
            }
            log.info("member {} decided servers version {}: {}", settings.memberId(), latest.version(),
                    decision.commit() ? "commit at " + decision.commitAtMillis() : "abort, " + decision.reason());
        }
    }

    private void scheduleCommit(ServerList latest, Decision decision) {
        synchronized (lock) {
            commitAtMillis = decision.commitAtMillis();
            if (version >= latest.version()) {
                return;
            }
            // A member that joined or came back after the decision builds the ring now and still switches at T.
            Pending scheduled = pendingFor(latest);
            if (scheduled.task == null) {
                long delay = decision.commitAtMillis() - System.currentTimeMillis();
                phase = Phase.COMMIT_SCHEDULED;
                scheduled.commitAtMillis = decision.commitAtMillis();
                scheduled.task = timer.schedule(() -> commit(scheduled), Math.max(0, delay), TimeUnit.MILLISECONDS);
                log.info("member {} switches to servers version {} at {} (in {} ms)", settings.memberId(),
                        latest.version(), decision.commitAtMillis(), delay);
            }
        }
    }

    /** The prepared change for {@code latest}, built now unless it already is. Caller holds lock. */
    private Pending pendingFor(ServerList latest) {
        if (pending == null || pending.version != latest.version()) {
            discardPending();
            pending = new Pending(latest.version(), latest.servers(), client.prepareServers(latest.servers()));
        }
        return pending;
    }

    private void commit(Pending scheduled) {
        SyncState applied;
        synchronized (lock) {
            if (closed || pending != scheduled) {
                return;
            }
            applied = applyPending(scheduled, "commit time reached");
        }
        notifyApplied(applied);
        if (recordsVersion == scheduled.version) {
            requestReconcile();
        } else {
            // The decider records the commit at T and everyone hears it through the watch on
            // committed; only if it has not (it died) by a commit delay later does a pass here do it.
            long recordBy = scheduled.commitAtMillis + settings.commitDelay().toMillis();
            try {
                timer.schedule(() -> {
                    if (state().committedVersion() < scheduled.version) {
                        requestReconcile();
                    }
                }, Math.max(0, recordBy - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // closing
            }
        }
    }

    /**
     * Records the commit, so that later joiners start from it: the member that decided it does at
     * T, any member does from a commit delay after T (the decider may have died). Written against
     * the {@code committed} version this pass read (older than {@code latest}): if another member
     * got there first, the write fails and that is fine. The recorder then deletes older barriers.
     */
    private void writeCommittedIfApplied(ServerList latest, Decision decision, Stat committedStat) throws Exception {
        long now = System.currentTimeMillis();
        synchronized (lock) {
            if (version < latest.version() || now < decision.commitAtMillis()) {
                return;
            }
        }
        if (recordsVersion != latest.version() && now < decision.commitAtMillis() + settings.commitDelay().toMillis()) {
            return;
        }
        if (znodes.recordCommitted(latest.committedAt(decision.commitAtMillis()), committedStat.getVersion())) {
            znodes.deleteBarriersBefore(latest.version());
        }
    }

    // ---- state changes (caller holds lock) ------------------------------------------------------

    private SyncState applyPending(Pending applying, String why) {
        if (applying.task != null) {
            applying.task.cancel(false);
        }
        applying.change.apply();
        pending = null;
        markApplied(applying.version, applying.servers, applying.commitAtMillis);
        long now = appliedAtMillis;
        log.info("member {} switched to servers version {} at {} ({}; T {}, {} ms off T): {}", settings.memberId(),
                applying.version, now, why, applying.commitAtMillis,
                applying.commitAtMillis == 0 ? "n/a" : now - applying.commitAtMillis, applying.servers);
        return snapshot();
    }

    private void markApplied(long newVersion, List<String> newServers, long commitAt) {
        version = newVersion;
        servers = newServers;
        appliedAtMillis = System.currentTimeMillis();
        // 0 when T is not known (the first list, or a record without it): a previous
        // change's T next to this version would mislead whoever reads the state.
        commitAtMillis = commitAt;
        phase = Phase.IN_SYNC;
    }

    private void discardPending() {
        if (pending != null) {
            if (pending.task != null) {
                pending.task.cancel(false);
            }
            pending.change.discard();
            pending = null;
        }
    }

    private SyncState snapshot() {
        ServerList latest = proposed;
        return new SyncState(settings.memberId(), connected, version, servers, appliedAtMillis, committedVersion,
                latest == null ? committedVersion : latest.version(), latest == null ? servers : latest.servers(),
                phase, commitAtMillis, lastError, clockOffsetMillis, clockOffsetErrorMillis);
    }

    // ---- ZooKeeper plumbing ---------------------------------------------------------------------

    /** A watched node changed; the removal of a watch this member no longer needs is no news. */
    private void nodeChanged(WatchedEvent event) {
        switch (event.getType()) {
            case NodeCreated, NodeDeleted, NodeDataChanged, NodeChildrenChanged -> requestReconcile();
            default -> {
                // connection states come through connectionChanged
            }
        }
    }

    private void connectionChanged(CuratorFramework client, ConnectionState state) {
        connected = state.isConnected();
        log.info("member {}: ZooKeeper connection {}", settings.memberId(), state);
        if (state.isConnected()) {
            checkStructure.set(true);
            requestReconcile();
        }
    }

    /** Runs a create of an ephemeral node, measures the clock offset from its creation time, returns its session. */
    private long measuringClock(Callable<Stat> create) throws Exception {
        long before = System.currentTimeMillis();
        Stat stat = create.call();
        long after = System.currentTimeMillis();
        long offset = stat.getCtime() - (before + after) / 2;
        long error = (after - before + 1) / 2;
        synchronized (lock) {
            clockOffsetMillis = offset;
            clockOffsetErrorMillis = error;
        }
        if (Math.abs(offset) - error > SKEW_WARNING_MILLIS) {
            log.warn("member {}: clock differs from ZooKeeper's by {} ms (+-{}); members switch at T by their own "
                    + "clocks, so fix clock sync (NTP)", settings.memberId(), offset, error);
        }
        return stat.getEphemeralOwner();
    }

    private void notifyApplied(SyncState applied) {
        if (applied == null || onApplied == null) {
            return;
        }
        try {
            onApplied.accept(applied);
        } catch (RuntimeException e) {
            log.warn("server list listener failed", e);
        }
    }

    static List<String> canonical(List<ServerAddress> addresses) {
        return addresses.stream().map(ServerAddress::toString).toList();
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** A proposed list this member has built but not switched to. */
    private static final class Pending {
        final long version;
        final List<String> servers;
        final ServerListChange change;
        long commitAtMillis;
        ScheduledFuture<?> task;

        Pending(long version, List<String> servers, ServerListChange change) {
            this.version = version;
            this.servers = servers;
            this.change = change;
        }
    }
}
