package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.grizzlyboot.memcached.zookeeper.SyncState.Phase;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Corners of the barrier that the happy path and the failure tests pass through without looking:
 * a proposal while a commit is decided but not yet recorded, an acknowledgement left behind by a
 * member that left, who records the commit and when, a member that acknowledged and then learns
 * the outcome only from the record, a tree deleted by hand while a member was away, and a member
 * started while ZooKeeper was unreachable. (Found by a hand-made mutation sweep: each test fails
 * with one plausible one-line bug in the protocol.)
 */
class BarrierEdgeCaseTest {

    private static final String ROOT = "/grizzly-memcached/";

    @RegisterExtension
    static ZooKeeperExtension zooKeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @RegisterExtension
    static ZnodeInspector znodes = new ZnodeInspector(zooKeeper);

    /** A change decided as commit but not yet switched to and recorded is still in progress: a new proposal is refused. */
    @Test
    void proposalWhileACommitIsDecidedButNotRecordedIsRejected() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String connect = zooKeeper.connectString();
        try (TestMember a = TestMember.join(connect, "decided", "a", before)) {
            try (CuratorFramework decider = TestMember.stuck(connect, "decided")) {
                a.sync.proposeServers(memcached.addresses(), 1);
                await().atMost(TestMember.AWAIT).until(() -> a.state().phase() == Phase.PREPARED);
                decider.create().forPath(ROOT + "decided/barriers/2/decision",
                        Decision.commitAt(System.currentTimeMillis() + 3_000, "stuck").encode());
            }
            await().atMost(TestMember.AWAIT).until(() -> a.state().phase() == Phase.COMMIT_SCHEDULED);

            assertThatThrownBy(() -> a.sync.proposeServers(before, 1))
                    .isInstanceOf(ServerListConflictException.class).hasMessageContaining("still in progress");
            assertThat(znodes.data(ROOT + "decided/servers")).contains("version=2");
            assertThat(znodes.exists(ROOT + "decided/barriers/3")).isNull();

            await().atMost(TestMember.AWAIT).until(() -> a.state().committedVersion() == 2);
            assertThat(a.state().version()).isEqualTo(2);
        }
    }

    /**
     * A member that leaves while its session lives on (it shares a Curator client the application
     * keeps) leaves its acknowledgement behind; that acknowledgement does not stand in for a live
     * member that has not acknowledged.
     */
    @Test
    void acknowledgementLeftByAMemberThatLeftDoesNotCountForAnother() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String connect = zooKeeper.connectString();
        String barrier = ROOT + "leftover/barriers/2";
        try (CuratorFramework xSession = TestMember.curator(connect);
             TestMember a = TestMember.join(connect, "leftover", "a", before)) {
            TestMember x = TestMember.join("leftover", "x", before, builder -> builder.curator(xSession));
            CuratorFramework stuck = TestMember.stuck(connect, "leftover");
            try {
                a.sync.proposeServers(memcached.addresses(), 1);
                await().atMost(TestMember.AWAIT).until(() -> znodes.exists(barrier + "/acks/a") != null
                        && znodes.exists(barrier + "/acks/x") != null);
                x.close();
                assertThat(znodes.exists(ROOT + "leftover/members/x")).isNull();
                assertThat(znodes.exists(barrier + "/acks/x")).as("x's session still holds its ack").isNotNull();

                // Live members a and stuck, acknowledgements from a and x: stuck is still missing.
                await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                        .until(() -> znodes.exists(barrier + "/decision") == null);
                assertThat(a.state().version()).isEqualTo(1);
            } finally {
                stuck.close();
            }
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 2);
            assertThat(znodes.data(barrier + "/decision")).contains("outcome=commit");
        }
    }

    /**
     * The member that decided records the commit at T, so a new change can be proposed right
     * after the switch (not only a commit delay later, when any member would record it).
     */
    @Test
    void theDeciderRecordsTheCommitAtT() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String connect = zooKeeper.connectString();
        try (TestMember a = TestMember.join(connect, "record", "a", before);
             TestMember b = TestMember.join(connect, "record", "b", before)) {
            a.sync.proposeServers(memcached.addresses(), 1);
            long commitAt = a.awaitSwitch(2).commitAtMillis();
            await().atMost(TestMember.AWAIT).until(() -> String.valueOf(znodes.data(ROOT + "record/committed")).contains("version=2"));

            Stat committed = znodes.exists(ROOT + "record/committed");
            // Both clocks are this machine's: ZooKeeper's modification time against the members' T.
            assertThat(committed.getMtime() - commitAt).as("recorded this long after T")
                    .isGreaterThanOrEqualTo(0).isLessThan(TestMember.COMMIT_DELAY.toMillis());
            assertThat(znodes.data(ROOT + "record/committed")).contains("commit-at=" + commitAt);
        }
    }

    /**
     * Each member reports each switch once (the list it adopted on joining, then every commit):
     * passes after a switch (the recorded commit, the next proposal) do not switch it to the same
     * list again.
     */
    @Test
    void everyMemberSwitchesToEachVersionOnce() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String connect = zooKeeper.connectString();
        try (TestMember a = TestMember.join(connect, "once", "a", before);
             TestMember b = TestMember.join(connect, "once", "b", before)) {
            a.sync.proposeServers(memcached.addresses(), 1);
            await().atMost(TestMember.AWAIT).until(() -> a.state().committedVersion() == 2 && b.state().committedVersion() == 2);
            b.sync.proposeServers(before, 2);
            await().atMost(TestMember.AWAIT).until(() -> a.state().committedVersion() == 3 && b.state().committedVersion() == 3);
            b.sync.proposeServers(memcached.addresses(), 3);
            await().atMost(TestMember.AWAIT).until(() -> a.state().committedVersion() == 4 && b.state().committedVersion() == 4);

            for (TestMember member : List.of(a, b)) {
                assertThat(member.switches).extracting(SyncState::version).as(member.state().memberId())
                        .containsExactly(1L, 2L, 3L, 4L);
            }
        }
    }

    /**
     * A member that built and acknowledged the list, then lost ZooKeeper before the decision,
     * learns the outcome only from the recorded commit: it switches at once, and reports the T
     * everybody else switched at.
     */
    @Test
    void aPreparedMemberThatMissedTheDecisionAdoptsTheRecordWithItsT() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String connect = zooKeeper.connectString();
        try (TcpProxy proxy = new TcpProxy(zooKeeper.server().getPort());
             TestMember a = TestMember.join(connect, "missed", "a", before);
             TestMember away = TestMember.join(proxy.address(), "missed", "away", before)) {
            CuratorFramework stuck = TestMember.stuck(connect, "missed");
            try {
                a.sync.proposeServers(memcached.addresses(), 1);
                await().atMost(TestMember.AWAIT).until(() -> away.state().phase() == Phase.PREPARED
                        && znodes.exists(ROOT + "missed/barriers/2/acks/away") != null);
                proxy.cut();
                await().atMost(TestMember.AWAIT).until(() -> !away.state().connected());
            } finally {
                stuck.close();
            }
            long commitAt = a.awaitSwitch(2).commitAtMillis();
            await().atMost(TestMember.AWAIT).until(() -> String.valueOf(znodes.data(ROOT + "missed/committed")).contains("version=2"));
            assertThat(away.state().version()).isEqualTo(1);
            assertThat(away.state().phase()).isEqualTo(Phase.PREPARED);

            proxy.restore();
            SyncState switched = away.awaitSwitch(2);
            assertThat(switched.commitAtMillis()).isEqualTo(commitAt);
            assertThat(switched.appliedAtMillis()).isGreaterThanOrEqualTo(commitAt);
            assertThat(away.state().commitAtMillis()).isEqualTo(commitAt);
            assertThat(away.client.servers()).hasToString(memcached.addresses().toString());
        }
    }

    /**
     * The cluster's {@code members} and {@code barriers} nodes deleted by hand while a member was
     * away (its session expired): on reconnecting it creates them again, registers, and takes part
     * in the next change.
     */
    @Test
    void treeDeletedWhileAMemberWasAwayIsRebuiltOnReconnect() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        try (TcpProxy proxy = new TcpProxy(zooKeeper.server().getPort());
             TestMember m = TestMember.join(proxy.address(), "rebuilt", "m", before)) {
            assertThat(znodes.exists(ROOT + "rebuilt/members/m")).isNotNull();
            proxy.cut();
            // Its session expires on the server, taking the member node with it.
            await().atMost(TestMember.AWAIT).until(() -> znodes.exists(ROOT + "rebuilt/members/m") == null);
            znodes.deleteTree(ROOT + "rebuilt/members");
            znodes.deleteTree(ROOT + "rebuilt/barriers");

            proxy.restore();
            await().atMost(TestMember.AWAIT).until(() -> znodes.exists(ROOT + "rebuilt/members/m") != null);
            assertThat(znodes.exists(ROOT + "rebuilt/barriers")).isNotNull();

            m.sync.proposeServers(memcached.addresses(), 1);
            await().atMost(TestMember.AWAIT).until(() -> m.state().version() == 2);
            assertThat(m.client.servers()).hasToString(memcached.addresses().toString());
        }
    }

    /**
     * A member started while ZooKeeper cannot be reached serves its own list, then joins when
     * ZooKeeper first answers: it adopts the committed list and registers, with no restart.
     */
    @Test
    void memberStartedWhileZooKeeperIsUnreachableJoinsOnItsFirstConnection() throws Exception {
        List<String> shared = memcached.addresses().subList(0, 2);
        List<String> own = memcached.addresses().subList(2, 3);
        String connect = zooKeeper.connectString();
        try (TcpProxy proxy = new TcpProxy(zooKeeper.server().getPort());
             TestMember a = TestMember.join(connect, "unreachable", "a", shared)) {
            proxy.cut();
            try (TestMember late = TestMember.join("unreachable", "late", own,
                    builder -> builder.connectString(proxy.address()).connectionTimeout(Duration.ofMillis(500)))) {
                assertThat(late.state().phase()).isEqualTo(Phase.JOINING);
                assertThat(late.state().version()).isZero();
                assertThat(late.client.servers()).hasToString(own.toString());

                proxy.restore();
                await().atMost(TestMember.AWAIT).until(() -> late.state().version() == 1
                        && znodes.exists(ROOT + "unreachable/members/late") != null);
                assertThat(late.client.servers()).hasToString(shared.toString());
                assertThat(late.state().phase()).isEqualTo(Phase.IN_SYNC);
            }
        }
    }
}
