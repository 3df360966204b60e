package dev.grizzlyboot.memcached.zookeeper;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * One cluster's znodes: their paths, every ZooKeeper read and write of the protocol, and the
 * parsing of their {@code key=value} contents:
 *
 * <pre>
 * {root}/{cluster}/servers                 latest proposal (list + version), written with a version check
 * {root}/{cluster}/committed               last committed list + version
 * {root}/{cluster}/members/{memberId}      ephemeral: who must acknowledge
 * {root}/{cluster}/barriers/{v}/acks/{id}  ephemeral: "I have list v ready"
 * {root}/{cluster}/barriers/{v}/decision   created once: commit at T, or abort
 * </pre>
 *
 * Thread-safe (it holds no state besides the paths and the Curator client); every method is one
 * or a few blocking ZooKeeper calls and throws what Curator throws.
 */
final class Znodes {

    private final CuratorFramework curator;
    private final String cluster;

    Znodes(CuratorFramework curator, String root, String clusterName) {
        this.curator = curator;
        this.cluster = root + "/" + clusterName;
    }

    // ---- reads ----------------------------------------------------------------------------------

    /** The committed list, or null if there is none yet; {@code stat} (may be null) gets its znode stat. */
    ServerList committed(Stat stat) throws Exception {
        return readList(committedPath(), stat);
    }

    /** The latest proposal, or null if there is none yet; {@code stat} (may be null) gets its znode stat. */
    ServerList latest(Stat stat) throws Exception {
        return readList(serversPath(), stat);
    }

    /** The decision of barrier {@code version}, or null while there is none. */
    Decision decision(long version) throws Exception {
        try {
            return Decision.decode(curator.getData().forPath(decisionPath(version)));
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    /** The ids of the live members. */
    List<String> members() throws Exception {
        return curator.getChildren().forPath(membersPath());
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

    /** Adds one persistent recursive watch on the cluster node; adding it twice is harmless. */
    void watch(Watcher watcher) throws Exception {
        curator.watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE).usingWatcher(watcher).forPath(cluster);
    }

    void unwatch(Watcher watcher) throws Exception {
        curator.watchers().remove(watcher).quietly().forPath(cluster);
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

    /** Deletes every barrier older than {@code version}, with its acknowledgements and decision. */
    void deleteBarriersBefore(long version) throws Exception {
        for (String child : curator.getChildren().forPath(barriersPath())) {
            if (isBarrierBefore(child, version)) {
                curator.delete().quietly().deletingChildrenIfNeeded().forPath(barriersPath() + "/" + child);
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

    // ---- contents -------------------------------------------------------------------------------

    static Properties fields(byte[] data) {
        Properties fields = new Properties();
        try {
            fields.load(new StringReader(new String(data, StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("unreadable znode content", e);
        }
        return fields;
    }

    static long longField(Properties fields, String name) {
        String value = fields.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("znode content lacks '" + name + "'");
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("znode field '" + name + "' is not a number: " + value, e);
        }
    }

    private ServerList readList(String path, Stat stat) throws Exception {
        try {
            byte[] data = stat == null ? curator.getData().forPath(path) : curator.getData().storingStatIn(stat).forPath(path);
            return ServerList.decode(data);
        } catch (KeeperException.NoNodeException e) {
            return null;
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
