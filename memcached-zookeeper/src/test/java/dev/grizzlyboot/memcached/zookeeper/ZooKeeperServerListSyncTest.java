package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.zookeeper.SyncState.Phase;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joining, seeding, proposals and the happy-path barrier, with five members in this JVM and one
 * in a separate JVM process, against a real ZooKeeper and real memcached processes.
 */
class ZooKeeperServerListSyncTest {

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperServerListSyncTest.class);

    @RegisterExtension
    static ZooKeeperExtension zooKeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(4);

    @RegisterExtension
    static ZnodeInspector znodes = new ZnodeInspector(zooKeeper);

    @Test
    void sixMembersInTwoJvmsSwitchAtTheSameMoment() throws Exception {
        List<String> before = memcached.addresses().subList(0, 3);
        List<String> after = memcached.addresses();
        List<TestMember> members = new ArrayList<>();
        try (ChildMember child = ChildMember.start(zooKeeper.connectString(), "six", "child", TestMember.COMMIT_DELAY,
                TestMember.PREPARE_TIMEOUT, TestMember.SESSION_TIMEOUT, String.join(",", before))) {
            for (int i = 0; i < 5; i++) {
                members.add(TestMember.join(zooKeeper.connectString(), "six", "jvm-" + i, before));
            }
            assertThat(child.awaitReport("JOINED", TestMember.AWAIT)[0]).isEqualTo("1");
            await().atMost(TestMember.AWAIT).until(() -> znodes.children("/grizzly-memcached/six/members").size() == 6);

            long version = members.get(0).sync.proposeServers(after, 1);
            assertThat(version).isEqualTo(2);

            String[] childSwitch = child.awaitReport("APPLIED 2", TestMember.AWAIT);
            await().atMost(TestMember.AWAIT).until(() -> members.stream().allMatch(member -> member.switchTo(2) != null));
            long commitAt = members.get(0).awaitSwitch(2).commitAtMillis();
            assertThat(Long.parseLong(childSwitch[1])).as("the child's T").isEqualTo(commitAt);
            List<Long> offsets = new ArrayList<>();
            List<Long> tolerances = new ArrayList<>();
            long childOffset = Long.parseLong(childSwitch[0]) - commitAt;
            offsets.add(childOffset);
            // The child's own stalls around its switch, as it measured them, on top of this JVM's.
            tolerances.add(TestMember.switchTolerance(commitAt, commitAt + childOffset) + Long.parseLong(childSwitch[2]));
            for (TestMember member : members) {
                SyncState switched = member.awaitSwitch(2);
                assertThat(switched.commitAtMillis()).isEqualTo(commitAt);
                long offset = switched.appliedAtMillis() - commitAt;
                offsets.add(offset);
                tolerances.add(TestMember.switchTolerance(commitAt, commitAt + offset));
                assertThat(member.client.servers()).hasToString(after.toString());
            }
            log.info("switch to version 2, ms after T (child first): {}; spread {} ms; tolerances: {}", offsets,
                    offsets.stream().mapToLong(Long::longValue).max().orElseThrow()
                            - offsets.stream().mapToLong(Long::longValue).min().orElseThrow(), tolerances);
            for (int i = 0; i < offsets.size(); i++) {
                assertThat(Math.abs(offsets.get(i))).as("member %d's switch, ms from T", i).isLessThanOrEqualTo(tolerances.get(i));
            }

            await().atMost(TestMember.AWAIT).until(() -> members.stream()
                    .allMatch(member -> member.state().committedVersion() == 2 && member.state().phase() == Phase.IN_SYNC));
            log.info("measured clock offsets to ZooKeeper (ms +- error): {}", members.stream()
                    .map(member -> member.state().clockOffsetMillis() + "+-" + member.state().clockOffsetErrorMillis())
                    .toList());
            SyncState state = members.get(0).state();
            assertThat(state.proposedVersion()).isEqualTo(2);
            assertThat(state.commitAtMillis()).isEqualTo(commitAt);
            assertThat(state.lastError()).isNull();
            // Same machine, same clock: the measured offset to ZooKeeper is within its own error bar plus 1 ms resolution.
            assertThat(Math.abs(state.clockOffsetMillis())).isLessThanOrEqualTo(state.clockOffsetErrorMillis() + 2);
        } finally {
            members.forEach(TestMember::close);
        }
    }

    @Test
    void firstMemberSeedsTheListAndLaterMembersAdoptIt() throws Exception {
        List<String> seeded = memcached.addresses().subList(0, 2);
        try (TestMember first = TestMember.join(zooKeeper.connectString(), "seed", "first", seeded);
             TestMember second = TestMember.join(zooKeeper.connectString(), "seed", "second",
                     memcached.addresses().subList(2, 4))) {
            assertThat(first.state().version()).isEqualTo(1);
            assertThat(second.state().version()).isEqualTo(1);
            assertThat(second.client.servers()).hasToString(seeded.toString());
            assertThat(second.state().phase()).isEqualTo(Phase.IN_SYNC);
            assertThat(znodes.data("/grizzly-memcached/seed/committed"))
                    .contains("servers=" + String.join(",", seeded));
        }
    }

    /**
     * Version skew in the records: a {@code committed} record written by a member built before
     * records carried T (no {@code commit-at}) is adopted with T unknown (0), and one written by a
     * newer member, with a line this one does not know, is adopted with its T.
     */
    @ParameterizedTest
    @CsvSource({"older, '', 0", "newer, 'commit-at=1795360729431\nwritten-by=a-later-release\n', 1795360729431"})
    void aMemberAdoptsCommittedRecordsOfOlderAndNewerMembers(String cluster, String extraLines, long commitAt)
            throws Exception {
        List<String> recorded = memcached.addresses().subList(0, 2);
        String record = "version=5\nservers=" + String.join(",", recorded) + "\nprepare-by=0\n" + extraLines;
        try (CuratorFramework writer = TestMember.curator(zooKeeper.connectString())) {
            for (String node : List.of("servers", "committed")) {
                writer.create().creatingParentsIfNeeded().forPath("/grizzly-memcached/" + cluster + "/" + node,
                        record.getBytes(StandardCharsets.UTF_8));
            }
        }
        try (TestMember member = TestMember.join(zooKeeper.connectString(), cluster, "member",
                memcached.addresses().subList(2, 4))) {
            await().atMost(TestMember.AWAIT).until(() -> member.state().version() == 5);
            assertThat(member.client.servers()).hasToString(recorded.toString());
            assertThat(member.state().commitAtMillis()).isEqualTo(commitAt);
            assertThat(member.state().phase()).isEqualTo(Phase.IN_SYNC);
        }
    }

    @Test
    void memberPreferringTheRemoteListWaitsForOne() throws Exception {
        List<String> local = memcached.addresses().subList(0, 1);
        try (TestMember strict = TestMember.join("strict", "strict", local,
                builder -> builder.connectString(zooKeeper.connectString()).preferRemoteList(true)
                        .connectionTimeout(Duration.ofMillis(500)))) {
            assertThat(strict.state().phase()).isEqualTo(Phase.JOINING);
            assertThat(strict.state().version()).isZero();
            assertThat(znodes.exists("/grizzly-memcached/strict/committed")).isNull();

            assertThatThrownBy(() -> strict.sync.proposeServers(memcached.addresses(), 3))
                    .isInstanceOf(ServerListConflictException.class).hasMessageContaining("expect 0");
            assertThat(strict.sync.proposeServers(memcached.addresses(), 0)).isEqualTo(1);

            await().atMost(TestMember.AWAIT).until(() -> strict.state().version() == 1);
            assertThat(strict.client.servers()).hasToString(memcached.addresses().toString());
        }
    }

    @Test
    void twoConcurrentProposalsOneWinsTheOtherGetsAConflict() throws Exception {
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "race", "a", memcached.addresses().subList(0, 2));
             TestMember b = TestMember.join(zooKeeper.connectString(), "race", "b", memcached.addresses().subList(0, 2))) {
            ExecutorService proposers = Executors.newFixedThreadPool(2);
            try {
                for (int round = 0; round < 3; round++) {
                    long expected = a.state().version();
                    CyclicBarrier start = new CyclicBarrier(2);
                    Future<Long> fromA = proposers.submit(() -> {
                        start.await();
                        return a.sync.proposeServers(memcached.addresses().subList(0, 3), expected);
                    });
                    Future<Long> fromB = proposers.submit(() -> {
                        start.await();
                        return b.sync.proposeServers(memcached.addresses().subList(1, 4), expected);
                    });
                    List<Long> won = new ArrayList<>();
                    List<Throwable> lost = new ArrayList<>();
                    for (Future<Long> proposal : List.of(fromA, fromB)) {
                        try {
                            won.add(proposal.get(10, TimeUnit.SECONDS));
                        } catch (java.util.concurrent.ExecutionException e) {
                            lost.add(e.getCause());
                        }
                    }
                    assertThat(won).as("round %d", round).containsExactly(expected + 1);
                    assertThat(lost).singleElement().isInstanceOf(ServerListConflictException.class);
                    assertThat(((ServerListConflictException) lost.get(0)).expectedVersion()).isEqualTo(expected);
                    await().atMost(TestMember.AWAIT).until(() -> a.state().committedVersion() == expected + 1
                            && b.state().committedVersion() == expected + 1);
                    assertThat(a.client.servers()).isEqualTo(b.client.servers());
                }
            } finally {
                proposers.shutdownNow();
            }
        }
    }

    @Test
    void staleOrOverlappingProposalsAreRejectedAndNothingIsWritten() throws Exception {
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "stale", "a", memcached.addresses().subList(0, 1))) {
            String committed = znodes.data("/grizzly-memcached/stale/committed");
            assertThatThrownBy(() -> a.sync.proposeServers(memcached.addresses(), 7))
                    .isInstanceOf(ServerListConflictException.class).hasMessageContaining("expected committed version 7");

            // A stuck member keeps the next change open, so a second proposal overlaps it.
            try (CuratorFramework stuck = TestMember.stuck(zooKeeper.connectString(), "stale")) {
                assertThat(a.sync.proposeServers(memcached.addresses().subList(0, 2), 1)).isEqualTo(2);
                assertThatThrownBy(() -> a.sync.proposeServers(memcached.addresses(), 1))
                        .isInstanceOf(ServerListConflictException.class).hasMessageContaining("still in progress");
            }
            await().atMost(TestMember.AWAIT).until(() -> a.state().committedVersion() == 2);
            assertThat(znodes.data("/grizzly-memcached/stale/committed")).isNotEqualTo(committed);
        }
    }

    @Test
    void badListsAreRejectedBeforeAnythingIsWritten() throws Exception {
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "bad", "a", memcached.addresses().subList(0, 1))) {
            String proposal = znodes.data("/grizzly-memcached/bad/servers");
            assertThatThrownBy(() -> a.sync.proposeServers(List.of(), 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> a.sync.proposeServers(List.of(" , "), 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> a.sync.proposeServers(List.of("127.0.0.1:99999"), 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port out of range");
            assertThatThrownBy(() -> a.sync.proposeServers(List.of("127.0.0.1:1", "127.0.0.1:1"), 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicates");
            assertThat(znodes.data("/grizzly-memcached/bad/servers")).isEqualTo(proposal);

            // The sync still works after the rejections.
            assertThat(a.sync.proposeServers(memcached.addresses().subList(0, 2), 1)).isEqualTo(2);
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 2);
        }
    }

    @Test
    void aSecondMemberWithTheSameIdGetsAClearErrorAndDoesNotDisplaceTheFirst() throws Exception {
        List<String> servers = memcached.addresses().subList(0, 1);
        try (TestMember first = TestMember.join(zooKeeper.connectString(), "twins", "twin", servers)) {
            long owner = znodes.exists("/grizzly-memcached/twins/members/twin").getEphemeralOwner();
            try (TestMember second = TestMember.join("twins", "twin", servers, builder -> builder
                    .connectString(zooKeeper.connectString()).connectionTimeout(Duration.ofMillis(500)))) {
                await().atMost(TestMember.AWAIT).until(() -> second.state().lastError() != null);
                assertThat(second.state().lastError()).isInstanceOf(ServerListSyncException.class)
                        .hasMessageContaining("member ids must be unique");
                assertThat(second.state().version()).as("it still adopted the shared list").isEqualTo(1);
            }
            // Closing the second did not delete the first one's node.
            assertThat(znodes.exists("/grizzly-memcached/twins/members/twin").getEphemeralOwner()).isEqualTo(owner);
            assertThat(first.state().lastError()).isNull();
        }
    }

    @Test
    void badOptionsAreRejected() {
        ZooKeeperServerListSync.Builder builder = ZooKeeperServerListSync.builder();
        try (var client = dev.grizzlyboot.memcached.MemcachedClient.builder().servers(memcached.addresses()).build()) {
            assertThatThrownBy(() -> builder.start(client)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("connectString");
            builder.connectString(zooKeeper.connectString());
            assertThatThrownBy(() -> builder.clusterName("a/b").start(client))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cluster name");
            assertThatThrownBy(() -> builder.clusterName("ok").rootPath("no-slash").start(client))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("root path");
            assertThatThrownBy(() -> builder.rootPath("/r").prepareTimeout(Duration.ofSeconds(1)).start(client))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("session timeout");
            // Equal is not longer: a crashed member's session could outlast the deadline.
            assertThatThrownBy(() -> builder.prepareTimeout(Duration.ofSeconds(10)).sessionTimeout(Duration.ofSeconds(10))
                    .start(client)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("session timeout");
            assertThatThrownBy(() -> builder.prepareTimeout(Duration.ofSeconds(30)).commitDelay(Duration.ofMillis(-1))
                    .start(client)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("commit delay");
            // Curator takes int milliseconds: 25 days would have wrapped around to a negative timeout.
            assertThatThrownBy(() -> builder.commitDelay(Duration.ofSeconds(1)).prepareTimeout(Duration.ofDays(30))
                    .sessionTimeout(Duration.ofDays(25)).start(client)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("session timeout must be at most 2147483647 ms: PT600H");
            assertThatThrownBy(() -> builder.sessionTimeout(Duration.ofSeconds(10)).connectionTimeout(Duration.ofDays(25))
                    .start(client)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("connection timeout must be at most 2147483647 ms: PT600H");
        }
    }

    @Test
    void closingAMemberRemovesItSoLaterBarriersDoNotWaitForIt() throws Exception {
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "leave", "a", memcached.addresses().subList(0, 1))) {
            TestMember b = TestMember.join(zooKeeper.connectString(), "leave", "b", memcached.addresses().subList(0, 1));
            assertThat(znodes.exists("/grizzly-memcached/leave/members/b")).isNotNull();
            b.close();
            assertThat(znodes.exists("/grizzly-memcached/leave/members/b")).isNull();

            long proposedAt = System.currentTimeMillis();
            a.sync.proposeServers(memcached.addresses().subList(0, 2), 1);
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 2);
            // Far sooner than the prepare timeout: nobody waited for the member that left.
            assertThat(a.awaitSwitch(2).commitAtMillis() - proposedAt)
                    .isLessThan(TestMember.COMMIT_DELAY.toMillis() + 2_000);
        }
    }
}
