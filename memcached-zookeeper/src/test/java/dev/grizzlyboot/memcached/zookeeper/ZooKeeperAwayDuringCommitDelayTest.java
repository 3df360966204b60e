package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.grizzlyboot.memcached.zookeeper.SyncState.Phase;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ZooKeeper gone for longer than the session timeout between the commit decision and T: the
 * decision was made, so every member still switches at T by its own timer, none early, and after
 * ZooKeeper returns the members register again (their sessions expired) and record the commit.
 * (The undecided case, where nobody switches, is {@code BarrierFailureTest}'s restart test.)
 */
class ZooKeeperAwayDuringCommitDelayTest {

    private static final Duration COMMIT_DELAY = Duration.ofSeconds(4);
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);

    @RegisterExtension
    static ZooKeeperExtension zooKeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @Test
    void decidedMembersSwitchAtTWhileZooKeeperIsAwayPastTheirSessionTimeout() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        UnaryOperator<ZooKeeperServerListSync.Builder> options = builder -> builder
                .connectString(zooKeeper.connectString()).commitDelay(COMMIT_DELAY)
                .sessionTimeout(SESSION_TIMEOUT).connectionTimeout(SESSION_TIMEOUT);
        try (TestMember a = TestMember.join("away", "a", before, options);
             TestMember b = TestMember.join("away", "b", before, options)) {
            a.sync.proposeServers(memcached.addresses(), 1);
            await().atMost(TestMember.AWAIT).until(() -> a.state().phase() == Phase.COMMIT_SCHEDULED
                    && b.state().phase() == Phase.COMMIT_SCHEDULED);
            zooKeeper.stop();
            long stoppedAt = System.currentTimeMillis();
            long commitAt = a.state().commitAtMillis();
            assertThat(b.state().commitAtMillis()).isEqualTo(commitAt);
            assertThat(commitAt - stoppedAt).as("ZooKeeper is away longer than the session timeout at T")
                    .isGreaterThan(SESSION_TIMEOUT.toMillis());

            SyncState aSwitched = a.awaitSwitch(2);
            SyncState bSwitched = b.awaitSwitch(2);
            assertThat(a.state().connected() || b.state().connected()).as("switched while ZooKeeper was away").isFalse();
            for (SyncState switched : List.of(aSwitched, bSwitched)) {
                assertThat(switched.appliedAtMillis()).as("not before T").isGreaterThanOrEqualTo(commitAt);
                assertThat(switched.appliedAtMillis() - commitAt)
                        .isLessThanOrEqualTo(TestMember.switchTolerance(commitAt, switched.appliedAtMillis()));
                assertThat(switched.servers()).isEqualTo(memcached.addresses());
            }

            zooKeeper.restart();
            await().atMost(TestMember.AWAIT).until(() -> a.state().committedVersion() == 2
                    && b.state().committedVersion() == 2 && a.state().phase() == Phase.IN_SYNC
                    && b.state().phase() == Phase.IN_SYNC);
            assertThat(a.state().servers()).isEqualTo(b.state().servers()).isEqualTo(memcached.addresses());
        }
    }
}
