package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.util.List;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ZooKeeperServerListSync#readCluster()} against a real ZooKeeper: registration, members, an open barrier. */
class ClusterViewTest {

    @RegisterExtension
    static ZooKeeperExtension zooKeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    @Test
    void showsTheCommittedListAndABarrierWaitingForAMember() throws Exception {
        List<String> first = memcached.addresses().subList(0, 1);
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "view", "a", first);
                TestMember b = TestMember.join(zooKeeper.connectString(), "view", "b", first)) {
            ClusterView settled = a.sync.readCluster();
            assertThat(settled.registered()).isTrue();
            assertThat(settled.sessionId()).isNotZero();
            assertThat(settled.members()).containsExactlyInAnyOrder("a", "b");
            assertThat(settled.committedVersion()).isEqualTo(1);
            assertThat(settled.committedServers()).containsExactlyElementsOf(first);
            assertThat(settled.committedAtMillis()).as("a seed list has no T").isZero();
            assertThat(settled.barrier()).isNull();

            CuratorFramework stuck = TestMember.stuck(zooKeeper.connectString(), "view");
            try {
                long proposal = a.sync.proposeServers(memcached.addresses(), 1);
                await().atMost(TestMember.AWAIT).until(() -> b.sync.readCluster().barrier().acks().size() == 2);
                ClusterView open = b.sync.readCluster();
                assertThat(open.barrier().version()).isEqualTo(proposal);
                assertThat(open.barrier().servers()).containsExactlyElementsOf(memcached.addresses());
                assertThat(open.barrier().acks()).containsExactlyInAnyOrder("a", "b");
                assertThat(open.members()).containsExactlyInAnyOrder("a", "b", "stuck");
                assertThat(open.barrier().decision()).isEqualTo("pending");
                assertThat(open.barrier().prepareByMillis()).isGreaterThan(System.currentTimeMillis());
                assertThat(open.committedVersion()).isEqualTo(1);
            } finally {
                stuck.close();
            }
            await().atMost(TestMember.AWAIT).until(() -> a.sync.readCluster().barrier() == null);
            ClusterView committed = a.sync.readCluster();
            assertThat(committed.committedVersion()).isEqualTo(2);
            assertThat(committed.committedAtMillis()).as("the committed record's T, the one both members switched at")
                    .isPositive().isEqualTo(a.awaitSwitch(2).commitAtMillis()).isEqualTo(b.awaitSwitch(2).commitAtMillis());
        }
    }

    @Test
    void zooKeeperAwayIsATypedError() throws Exception {
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "away", "a", memcached.addresses())) {
            zooKeeper.stop();
            try {
                assertThatThrownBy(() -> a.sync.readCluster()).isInstanceOf(ServerListSyncException.class);
            } finally {
                zooKeeper.restart();
            }
        }
    }
}
