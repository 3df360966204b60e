package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
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
 * Barriers under failure: a member killed or expired while a change is being prepared,
 * ZooKeeper restarted mid-barrier, a member that was away while a change was made, and a decider
 * gone before T (so someone else records the commit). A member "stuck in prepare" is a live
 * ZooKeeper session holding a member node that never acknowledges; it keeps a barrier open for as
 * long as a test needs.
 */
class BarrierFailureTest {


    @RegisterExtension
    static ZooKeeperExtension zooKeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @RegisterExtension
    static ZnodeInspector znodes = new ZnodeInspector(zooKeeper);

    @Test
    void memberKilledDuringPrepareIsDroppedFromTheWait() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        try (ChildMember child = ChildMember.start(zooKeeper.connectString(), "killed", "child", TestMember.COMMIT_DELAY,
                TestMember.PREPARE_TIMEOUT, TestMember.SESSION_TIMEOUT, String.join(",", before));
             TestMember a = TestMember.join(zooKeeper.connectString(), "killed", "a", before);
             TestMember b = TestMember.join(zooKeeper.connectString(), "killed", "b", before)) {
            child.awaitReport("JOINED", TestMember.AWAIT);
            child.pause(); // mute: it cannot acknowledge, but its session lives until it times out

            long proposedAt = System.currentTimeMillis();
            proposeAllServersAndAwaitPrepared(a, b);
            assertThat(znodes.exists("/grizzly-memcached/killed/barriers/2/decision")).isNull();
            assertThat(znodes.exists("/grizzly-memcached/killed/members/child")).isNotNull();

            long killedAt = System.currentTimeMillis();
            child.kill();
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 2 && b.state().version() == 2);

            long commitAt = a.awaitSwitch(2).commitAtMillis();
            assertThat(commitAt - TestMember.COMMIT_DELAY.toMillis()).as("decided after the kill").isGreaterThanOrEqualTo(killedAt);
            // Decided when the member's session ended (its node leaving wakes the waiting members), not
            // by a pass at the prepare deadline that would then find every live member acknowledged.
            assertThat(commitAt - TestMember.COMMIT_DELAY.toMillis()).as("decided before the prepare deadline")
                    .isLessThan(proposedAt + TestMember.PREPARE_TIMEOUT.toMillis());
            assertThat(znodes.data("/grizzly-memcached/killed/barriers/2/decision"))
                    .contains("outcome=commit");
            assertThat(znodes.exists("/grizzly-memcached/killed/members/child")).isNull();
            assertSwitchedTogether(2, commitAt, a, b);
        }
    }

    @Test
    void memberWhoseSessionExpiresDuringPrepareRejoinsAndAcknowledgesAgain() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String connect = zooKeeper.connectString();
        try (CuratorFramework cSession = TestMember.curator(connect);
             CuratorFramework stuck = TestMember.stuck(connect, "expiry");
             TestMember a = TestMember.join(connect, "expiry", "a", before);
             TestMember c = TestMember.join("expiry", "c", before, builder -> builder.curator(cSession))) {
            a.sync.proposeServers(memcached.addresses(), 1);
            String cAck = "/grizzly-memcached/expiry/barriers/2/acks/c";
            await().atMost(TestMember.AWAIT).until(() -> c.state().phase() == Phase.PREPARED && znodes.exists(cAck) != null);
            long oldSession = znodes.exists(cAck).getEphemeralOwner();

            TestMember.expireSession(cSession, connect);
            await().atMost(TestMember.AWAIT).until(() -> {
                Stat ack = znodes.exists(cAck);
                Stat member = znodes.exists("/grizzly-memcached/expiry/members/c");
                return ack != null && member != null && ack.getEphemeralOwner() != oldSession
                        && member.getEphemeralOwner() == ack.getEphemeralOwner();
            });
            assertThat(znodes.exists("/grizzly-memcached/expiry/barriers/2/decision")).isNull();
            assertThat(a.state().version()).isEqualTo(1);

            // The stuck member's session expires too: it is dropped and the change commits.
            TestMember.expireSession(stuck, connect);
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 2 && c.state().version() == 2);
            assertSwitchedTogether(2, a.awaitSwitch(2).commitAtMillis(), a, c);
            assertThat(c.client.servers()).hasToString(memcached.addresses().toString());
        }
    }

    @Test
    void zooKeeperRestartedInTheMiddleOfABarrier() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String connect = zooKeeper.connectString();
        try (TestMember a = TestMember.join(connect, "restart", "a", before);
             TestMember b = TestMember.join(connect, "restart", "b", before)) {
            CuratorFramework stuck = TestMember.stuck(connect, "restart");
            try {
                proposeAllServersAndAwaitPrepared(a, b);

                zooKeeper.stop();
                await().atMost(TestMember.AWAIT).until(() -> !a.state().connected() && !b.state().connected());
                // ZooKeeper away: both keep serving from the old list.
                a.client.blocking().set("restart-key", "still served", Duration.ZERO);
                assertThat(b.client.blocking().get("restart-key")).isEqualTo("still served");
                assertThat(a.client.servers()).hasToString(before.toString());
                assertThat(a.state().phase()).isEqualTo(Phase.PREPARED);

                zooKeeper.restart();
                await().atMost(TestMember.AWAIT).until(() -> a.state().connected() && b.state().connected());
                assertThat(a.state().version()).isEqualTo(1);
            } finally {
                stuck.close();
            }
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 2 && b.state().version() == 2);
            assertSwitchedTogether(2, a.awaitSwitch(2).commitAtMillis(), a, b);
            await().atMost(TestMember.AWAIT).until(() -> a.state().committedVersion() == 2);
        }
    }

    @Test
    void proposalMadeWhileAMemberIsDisconnectedReachesItOnReconnect() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        try (TcpProxy proxy = new TcpProxy(zooKeeper.server().getPort());
             TestMember a = TestMember.join(zooKeeper.connectString(), "away", "a", before);
             TestMember away = TestMember.join(proxy.address(), "away", "away", before)) {
            assertThat(away.state().version()).isEqualTo(1);
            proxy.cut();
            await().atMost(TestMember.AWAIT).until(() -> !away.state().connected());

            // The absent member's node lives until its session expires; then the change commits without it.
            a.sync.proposeServers(memcached.addresses(), 1);
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 2);
            assertThat(away.state().version()).isEqualTo(1);
            assertThat(away.client.servers()).hasToString(before.toString());

            proxy.restore();
            await().atMost(TestMember.AWAIT).until(() -> away.state().version() == 2);
            assertThat(away.client.servers()).hasToString(memcached.addresses().toString());
            assertThat(away.state().phase()).isEqualTo(Phase.IN_SYNC);
            // It never heard the decision; the recorded commit tells it T.
            long commitAt = a.awaitSwitch(2).commitAtMillis();
            assertThat(away.awaitSwitch(2).commitAtMillis()).isEqualTo(commitAt);
            assertThat(away.state().commitAtMillis()).isEqualTo(commitAt);
            await().atMost(TestMember.AWAIT).until(() -> znodes.exists("/grizzly-memcached/away/members/away") != null);

            // And it takes part in the next change again.
            a.sync.proposeServers(before, 2);
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 3 && away.state().version() == 3);
            assertSwitchedTogether(3, a.awaitSwitch(3).commitAtMillis(), a, away);
        }
    }

    @Test
    void changeNotAcknowledgedByTheDeadlineIsAbortedAndTheNextOneCommits() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String connect = zooKeeper.connectString();
        try (CuratorFramework session = TestMember.curator(connect);
             TestMember a = TestMember.join("abort", "a", before,
                     builder -> builder.curator(session).prepareTimeout(Duration.ofSeconds(1)))) {
            try (CuratorFramework stuck = TestMember.stuck(connect, "abort")) {
                a.sync.proposeServers(memcached.addresses(), 1);
                await().atMost(TestMember.AWAIT).until(() -> a.state().phase() == Phase.ABORTED);
                assertThat(znodes.data("/grizzly-memcached/abort/barriers/2/decision"))
                        .contains("outcome=abort").contains("[stuck]");
                assertThat(a.state().version()).isEqualTo(1);
                assertThat(a.state().proposedVersion()).isEqualTo(2);
                assertThat(a.client.servers()).hasToString(before.toString());
                assertThat(a.switchTo(2)).isNull();
            }
            // The aborted change does not block the next one, based on the same committed version.
            assertThat(a.sync.proposeServers(memcached.addresses(), 1)).isEqualTo(3);
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 3);
            assertThat(a.client.servers()).hasToString(memcached.addresses().toString());
            await().atMost(TestMember.AWAIT).until(() -> znodes.exists("/grizzly-memcached/abort/barriers/2") == null);
        }
    }

    @Test
    void memberJoiningMidBarrierStartsFromTheCommittedListAndSwitchesWithTheOthers() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String connect = zooKeeper.connectString();
        try (TestMember a = TestMember.join(connect, "midway", "a", before)) {
            CuratorFramework stuck = TestMember.stuck(connect, "midway");
            try {
                a.sync.proposeServers(memcached.addresses(), 1);
                await().atMost(TestMember.AWAIT).until(() -> a.state().phase() == Phase.PREPARED);
                try (TestMember late = TestMember.join(connect, "midway", "late", memcached.addresses().subList(2, 3))) {
                    assertThat(late.state().version()).isEqualTo(1);
                    assertThat(late.client.servers()).hasToString(before.toString());
                    await().atMost(TestMember.AWAIT).until(() -> late.state().phase() == Phase.PREPARED);

                    stuck.close();
                    await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 2 && late.state().version() == 2);
                    assertSwitchedTogether(2, a.awaitSwitch(2).commitAtMillis(), a, late);
                    assertThat(late.client.servers()).hasToString(memcached.addresses().toString());
                }
            } finally {
                stuck.close();
            }
        }
    }

    @Test
    void commitIsRecordedEvenWhenTheMemberThatDecidedItIsGone() throws Exception {
        List<String> servers = memcached.addresses().subList(0, 2);
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "orphan", "a", servers);
             TestMember b = TestMember.join(zooKeeper.connectString(), "orphan", "b", servers)) {
            // The stuck member decides and leaves, as a decider that dies before T would: the
            // member that would record the commit at T is gone. T leaves room for a slow create.
            try (CuratorFramework decider = TestMember.stuck(zooKeeper.connectString(), "orphan")) {
                proposeAllServersAndAwaitPrepared(a, b);
                decider.create().forPath("/grizzly-memcached/orphan/barriers/2/decision",
                        Decision.commitAt(System.currentTimeMillis() + 3_000, "stuck").encode());
            }
            long commitAt = a.awaitSwitch(2).commitAtMillis();
            assertSwitchedTogether(2, commitAt, a, b);
            await().atMost(TestMember.AWAIT).until(() -> a.state().committedVersion() == 2 && b.state().committedVersion() == 2);
            assertThat(znodes.data("/grizzly-memcached/orphan/committed")).contains("version=2");
            // By the member that noticed a commit delay after T, not by a pass that happened to run
            // later (the prepare deadline's, 15 s after the proposal). One machine, one clock.
            assertThat(znodes.exists("/grizzly-memcached/orphan/committed").getMtime() - commitAt)
                    .as("recorded this long after T").isLessThan(TestMember.COMMIT_DELAY.toMillis() + 3_000);
            assertThat(a.state().phase()).isEqualTo(Phase.IN_SYNC);
        }
    }

    /** {@code a} proposes every server (version 2) and both members build the new ring and acknowledge. */
    private static void proposeAllServersAndAwaitPrepared(TestMember a, TestMember b) {
        a.sync.proposeServers(memcached.addresses(), 1);
        await().atMost(TestMember.AWAIT).until(() -> a.state().phase() == Phase.PREPARED && b.state().phase() == Phase.PREPARED);
    }

    /**
     * Every member switched to {@code version} at the same T, none before it, and all within the
     * tolerance of each other. (How late after T a whole JVM gets the CPU on a loaded machine is
     * measured by the happy-path tests; here the point is agreement.)
     */
    private static void assertSwitchedTogether(long version, long commitAt, TestMember... members) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (TestMember member : members) {
            SyncState switched = member.awaitSwitch(version);
            assertThat(switched).as("%s switched to %d", member.state().memberId(), version).isNotNull();
            assertThat(switched.commitAtMillis()).isEqualTo(commitAt);
            assertThat(switched.appliedAtMillis()).as("not before T").isGreaterThanOrEqualTo(commitAt);
            first = Math.min(first, switched.appliedAtMillis());
            last = Math.max(last, switched.appliedAtMillis());
        }
        assertThat(last - first).as("spread of the switch").isLessThanOrEqualTo(TestMember.switchTolerance(first, last));
    }
}
