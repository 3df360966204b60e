package dev.grizzlyboot.memcached.zookeeper;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * One cluster's znodes as one member sees them: their paths, every ZooKeeper read and write of the
 * protocol and the member's watches ({@link ServerList} and {@link Decision} read and write their
 * {@code key=value} contents):
 *
 * <pre>
 * {root}/{cluster}/servers                 latest proposal (list + version), written with a version check
 * {root}/{cluster}/committed               last committed list + version
 * {root}/{cluster}/members/{memberId}      ephemeral: who must acknowledge
 * {root}/{cluster}/barriers/{v}/acks/{id}  ephemeral: "I have list v ready"
 * {root}/{cluster}/barriers/{v}/decision   created once: commit at T, or abort
 * </pre>
 *
 * The reads a member reacts to leave a one-time watch (the member's {@code watcher}) on exactly
 * the nodes whose next change matters: {@code committed}, {@code servers}, the open barrier's
 * {@code decision}, and {@code members} while the member waits for others to acknowledge.
 * Nobody watches acknowledgements, so neither acknowledging nor cleaning up a barrier notifies
 * anyone. Thread-safe (no state besides the paths, the Curator client and the watcher); every
 * method is one or a few blocking ZooKeeper calls and throws what Curator throws.
 */
final class Znodes {

    /** Deletes per transaction when cleaning up, well below ZooKeeper's 1 MB request limit. */
    private static final int DELETES_PER_TRANSACTION = 1_000;

    private final CuratorFramework curator;
    private final String cluster;
    private final Watcher watcher;

    /**
     * A member's view, whose reads leave one-time watches for {@code watcher}; with a {@code null}
     * watcher, a read-only view that watches nothing (for inspection).
     */
    Znodes(CuratorFramework curator, String root, String clusterName, Watcher watcher) {
        this.curator = curator;
        this.cluster = root + "/" + clusterName;
        this.watcher = watcher;
    }

    // ---- reads ----------------------------------------------------------------------------------

    /**
     * The committed list, or null if there is none yet; {@code stat} gets its znode stat. Watched:
     * the member hears when it is recorded, or created.
     */
    ServerList committed(Stat stat) throws Exception {
        return readList(committedPath(), stat);
    }

    /**
     * The latest proposal, or null if there is none yet; {@code stat} (may be null) gets its znode
     * stat. Watched: the member hears of the next proposal.
     */
    ServerList latest(Stat stat) throws Exception {
        return readList(serversPath(), stat);
    }

    /**
     * The decision of barrier {@code version}, or null while there is none. Watched while there is
     * none (the member hears when it is made); once made it never changes, so it is read unwatched.
     */
    Decision decision(long version) throws Exception {
        String path = decisionPath(version);
        while (true) {
            try {
                return Decision.decode(path, curator.getData().forPath(path));
            } catch (KeeperException.NoNodeException e) {
                // Watch only a missing node: a watch on an existing one would fire again at clean-up.
                if (exists(path) == null) {
                    return null;
                }
            }
        }
    }

    /** The ids of the live members. Watched: the member hears when one joins or leaves. */
    List<String> members() throws Exception {
        return watcher == null ? curator.getChildren().forPath(membersPath())
                : curator.getChildren().usingWatcher(watcher).forPath(membersPath());
    }

    /** Stops hearing about members joining and leaving (the member no longer waits for them). */
    void unwatchMembers() throws Exception {
        curator.watchers().remove(watcher).ofType(Watcher.WatcherType.Children).quietly().forPath(membersPath());
    }

    /** The ids of the members that acknowledged barrier {@code version}. */
    List<String> acks(long version) throws Exception {
        return curator.getChildren().forPath(acksPath(version));
    }

    /** The stat of a member's node, or null if it is not registered. */
    Stat member(String memberId) throws Exception {
        return curator.checkExists().forPath(memberPath(memberId));
    }

    /** The stat of a member's acknowledgement of barrier {@code version}, or null if there is none. */
    Stat ack(long version, String memberId) throws Exception {
        return curator.checkExists().forPath(ackPath(version, memberId));
    }

    // ---- structure and watch --------------------------------------------------------------------

    /** Creates the cluster's {@code members} and {@code barriers} nodes (and their parents) unless they exist. */
    void createParents() throws Exception {
        for (String path : List.of(membersPath(), barriersPath())) {
            try {
                curator.create().creatingParentsIfNeeded().forPath(path);
            } catch (KeeperException.NodeExistsException e) {
                // another member made it
            }
        }
    }

    /** Removes the member's watches (those left on {@code barrier}'s decision included), for leaving. */
    void unwatchAll(long barrier) throws Exception {
        for (String path : List.of(committedPath(), serversPath(), membersPath(), decisionPath(barrier))) {
            curator.watchers().remove(watcher).ofType(Watcher.WatcherType.Any).quietly().forPath(path);
        }
    }

    // ---- writes ---------------------------------------------------------------------------------

    /** Creates {@code servers} and {@code committed} with the same first list, in one transaction. */
    void seed(ServerList first) throws Exception {
        curator.transaction().forOperations(
                curator.transactionOp().create().forPath(serversPath(), first.encode()),
                curator.transactionOp().create().forPath(committedPath(), first.encode()));
    }

    /**
     * Writes {@code proposal} to {@code servers} if that znode is still at {@code serversZnodeVersion},
     * and opens its barrier, in one transaction.
     *
     * @throws KeeperException.BadVersionException if another proposal was written since
     */
    void propose(ServerList proposal, int serversZnodeVersion) throws Exception {
        curator.transaction().forOperations(
                curator.transactionOp().setData().withVersion(serversZnodeVersion).forPath(serversPath(), proposal.encode()),
                curator.transactionOp().create().forPath(barrierPath(proposal.version())),
                curator.transactionOp().create().forPath(acksPath(proposal.version())));
    }

    /** Registers a member: an ephemeral node of this session. Returns its stat. */
    Stat createMember(String memberId, byte[] data) throws Exception {
        return createEphemeral(memberPath(memberId), data);
    }

    /** Acknowledges barrier {@code version}: an ephemeral node of this session. Returns its stat. */
    Stat createAck(long version, String memberId) throws Exception {
        return createEphemeral(ackPath(version, memberId), new byte[0]);
    }

    /** Creates the decision of barrier {@code version}; false if another member decided first. */
    boolean decide(long version, Decision decision) throws Exception {
        try {
            curator.create().forPath(decisionPath(version), decision.encode());
            return true;
        } catch (KeeperException.NodeExistsException e) {
            return false;
        }
    }

    /**
     * Records {@code list} as committed if the {@code committed} znode is still at
     * {@code committedZnodeVersion}; false if another member recorded it first.
     */
    boolean recordCommitted(ServerList list, int committedZnodeVersion) throws Exception {
        try {
            curator.setData().withVersion(committedZnodeVersion).forPath(committedPath(), list.encode());
            return true;
        } catch (KeeperException.BadVersionException e) {
            return false;
        }
    }

    /**
     * Deletes every barrier older than {@code version}, with its acknowledgements and decision, in
     * as few transactions as the request size allows: one request per thousand nodes, where node
     * by node would be one per acknowledgement. Nobody watches these nodes, so nobody hears of it.
     */
    void deleteBarriersBefore(long version) throws Exception {
        List<String> paths = new ArrayList<>();
        for (String child : curator.getChildren().forPath(barriersPath())) {
            if (isBarrierBefore(child, version)) {
                long old = Long.parseLong(child);
                childrenOrNone(acksPath(old)).forEach(ack -> paths.add(ackPath(old, ack)));
                childrenOrNone(barrierPath(old)).stream().filter(name -> !name.equals("acks"))
                        .forEach(name -> paths.add(barrierPath(old) + "/" + name));
                paths.add(acksPath(old));
                paths.add(barrierPath(old));
            }
        }
        for (int from = 0; from < paths.size(); from += DELETES_PER_TRANSACTION) {
            List<String> chunk = paths.subList(from, Math.min(paths.size(), from + DELETES_PER_TRANSACTION));
            List<CuratorOp> deletes = new ArrayList<>();
            for (String path : chunk) {
                deletes.add(curator.transactionOp().delete().forPath(path));
            }
            try {
                curator.transaction().forOperations(deletes);
            } catch (KeeperException.NoNodeException | KeeperException.NotEmptyException e) {
                // An acknowledgement went with its session (or one was added) since the listing:
                // the transaction is all or nothing, so delete this chunk node by node instead.
                for (String path : chunk) {
                    curator.delete().quietly().deletingChildrenIfNeeded().forPath(path);
                }
            }
        }
    }

    /** Deletes a member node at the given znode version, if it is still there. */
    void deleteMember(String memberId, int znodeVersion) throws Exception {
        curator.delete().quietly().withVersion(znodeVersion).forPath(memberPath(memberId));
    }

    /** Deletes a member node whatever its version; with {@code guaranteed}, Curator retries in the background. */
    void deleteMember(String memberId, boolean guaranteed) throws Exception {
        if (guaranteed) {
            curator.delete().quietly().guaranteed().forPath(memberPath(memberId));
        } else {
            curator.delete().quietly().forPath(memberPath(memberId));
        }
    }

    // ---- paths ----------------------------------------------------------------------------------

    String clusterPath() {
        return cluster;
    }

    String serversPath() {
        return cluster + "/servers";
    }

    String committedPath() {
        return cluster + "/committed";
    }

    String membersPath() {
        return cluster + "/members";
    }

    String memberPath(String memberId) {
        return membersPath() + "/" + memberId;
    }

    String barriersPath() {
        return cluster + "/barriers";
    }

    String barrierPath(long version) {
        return barriersPath() + "/" + version;
    }

    String acksPath(long version) {
        return barrierPath(version) + "/acks";
    }

    String ackPath(long version, String memberId) {
        return acksPath(version) + "/" + memberId;
    }

    String decisionPath(long version) {
        return barrierPath(version) + "/decision";
    }

    /** A node's stat, or null; watched (for its creation) unless this view is unwatched. */
    private Stat exists(String path) throws Exception {
        return watcher == null ? curator.checkExists().forPath(path) : curator.checkExists().usingWatcher(watcher).forPath(path);
    }

    /** Reads a list, watched; a missing node gets a watch for its creation instead. */
    private ServerList readList(String path, Stat stat) throws Exception {
        Stat into = stat == null ? new Stat() : stat;
        while (true) {
            try {
                return ServerList.decode(path, watcher == null ? curator.getData().storingStatIn(into).forPath(path)
                        : curator.getData().storingStatIn(into).usingWatcher(watcher).forPath(path));
            } catch (KeeperException.NoNodeException e) {
                if (exists(path) == null) {
                    return null;
                }
                // created between the two calls: read it
            }
        }
    }

    /** A node's children, or none if the node does not exist; never watched. */
    List<String> childrenOrNone(String path) throws Exception {
        try {
            return curator.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    private Stat createEphemeral(String path, byte[] data) throws Exception {
        Stat stat = new Stat();
        curator.create().storingStatIn(stat).withMode(CreateMode.EPHEMERAL).forPath(path, data);
        return stat;
    }

    private static boolean isBarrierBefore(String child, long version) {
        try {
            return Long.parseLong(child) < version;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
