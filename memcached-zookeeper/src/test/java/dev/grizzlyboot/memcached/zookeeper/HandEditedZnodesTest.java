package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.memcached.zookeeper.SyncState.Phase;
import dev.grizzlyboot.testsupport.CountingZooKeeperServer;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Znodes written or deleted by a person or another tool rather than by a member: the members
 * report what is wrong, naming the node and the field, keep routing with the list they have, and
 * carry on by themselves once the node is fixed or the tree rebuilt.
 */
class HandEditedZnodesTest {

    private static final String ROOT = "/grizzly-memcached/";

    @RegisterExtension
    static ZooKeeperExtension zooKeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @RegisterExtension
    static ZnodeInspector znodes = new ZnodeInspector(zooKeeper);

    @Test
    void aCommittedNodeEditedBadlyIsReportedByNodeAndFieldAndTheMemberKeepsItsList() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String all = String.join(",", memcached.addresses());
        String committed = ROOT + "edited/committed";
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("\u0000\u00ff\u00fe garbage", "version");
        bad.put("", "version");
        bad.put("version=-3\nservers=" + all + "\n", "version");
        bad.put("version=two\nservers=" + all + "\n", "version");
        bad.put("version=2\nservers=" + all + "\nprepare-by=abc\n", "prepare-by");
        bad.put("version=2\nservers=" + all + "\ncommit-at=-5\n", "commit-at");
        bad.put("version=2\nservers=\n", "servers");
        bad.put("version=2\nservers=127.0.0.1:99999\n", "servers");
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "edited", "a", before)) {
            for (Map.Entry<String, String> edit : bad.entrySet()) {
                znodes.write(committed, edit.getKey());
                await().atMost(TestMember.AWAIT).alias(edit.getKey()).until(() -> a.state().lastError()
                        instanceof UnreadableZnodeException e && e.path().equals(committed)
                        && e.field().equals(edit.getValue()) && e.getMessage().contains(committed));
                assertThat(a.state().version()).as(edit.getKey()).isEqualTo(1);
                assertThat(a.state().servers()).as(edit.getKey()).isEqualTo(before);
                assertThat(BarrierMember.canonical(a.client.servers())).as(edit.getKey()).isEqualTo(before);
                // Mark this error as seen, so that the next edit must raise its own.
                znodes.write(committed, "version=1\nservers=" + String.join(",", before) + "\n");
                await().atMost(TestMember.AWAIT).until(() -> a.state().committedVersion() == 1);
            }
            a.client.set("still-routed", "yes", Duration.ofMinutes(1)).get();
            assertThat(a.client.get("still-routed").get()).isEqualTo("yes");

            // Fixed by hand, spaces around the entries included: adopted, in canonical form.
            znodes.write(committed, "version=2\nservers=" + String.join(" , ", memcached.addresses()) + "\n");
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 2);
            assertThat(a.state().servers()).isEqualTo(memcached.addresses());
        }
    }

    /** A decision nobody can read is not taken for an abort (nor a commit): members wait until it is fixed. */
    @Test
    void aGarbledDecisionIsReportedAndNotTakenForAnAbort() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String decision = ROOT + "garbled/barriers/2/decision";
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "garbled", "a", before);
             CuratorFramework tool = TestMember.stuck(zooKeeper.connectString(), "garbled")) {
            a.sync.proposeServers(memcached.addresses(), 1);
            await().atMost(TestMember.AWAIT).until(() -> a.state().phase() == Phase.PREPARED);
            tool.create().forPath(decision, "outcome=comit\n".getBytes(StandardCharsets.UTF_8));

            await().atMost(TestMember.AWAIT).until(() -> a.state().lastError() instanceof UnreadableZnodeException e
                    && e.path().equals(decision) && e.field().equals("outcome"));
            assertThat(a.state().phase()).isEqualTo(Phase.PREPARED);
            assertThat(a.state().version()).isEqualTo(1);

            long commitAt = System.currentTimeMillis() + 1_000;
            tool.setData().forPath(decision, Decision.commitAt(commitAt, "tool").encode());
            assertThat(a.awaitSwitch(2).appliedAtMillis()).isGreaterThanOrEqualTo(commitAt);
            assertThat(a.state().servers()).isEqualTo(memcached.addresses());
        }
    }

    /**
     * A {@code committed} version above the latest proposal (restored from a backup, or written by
     * a tool): the next proposal is numbered past both, so members apply it instead of ignoring it.
     */
    @Test
    void aProposalAfterACommittedVersionAboveTheLatestProposalIsApplied() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "ahead", "a", before)) {
            znodes.write(ROOT + "ahead/committed", "version=5\nservers=" + String.join(",", before) + "\n");
            await().atMost(TestMember.AWAIT).until(() -> a.state().version() == 5);

            assertThat(a.sync.proposeServers(memcached.addresses(), 5)).isEqualTo(6);
            a.awaitSwitch(6);
            assertThat(a.state().servers()).isEqualTo(memcached.addresses());
            await().atMost(TestMember.AWAIT).until(() -> znodes.data(ROOT + "ahead/committed").contains("version=6"));
        }
    }

    /**
     * The whole cluster tree deleted by hand while members run: they rebuild it, seeded with the
     * list and version they use (not version 1, which would make the next proposal one they
     * ignore as behind), register again, and take part in the next change.
     */
    @Test
    void treeDeletedWhileMembersRunIsRebuiltWithTheListInUse() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        String cluster = ROOT + "deleted";
        try (TestMember a = TestMember.join(zooKeeper.connectString(), "deleted", "a", before);
             TestMember b = TestMember.join(zooKeeper.connectString(), "deleted", "b", before)) {
            a.sync.proposeServers(memcached.addresses(), 1);
            a.awaitSwitch(2);
            b.awaitSwitch(2);
            await().atMost(TestMember.AWAIT).until(() -> String.valueOf(znodes.data(cluster + "/committed"))
                    .contains("version=2"));

            znodes.deleteTree(cluster);
            await().atMost(TestMember.AWAIT).until(() -> znodes.exists(cluster + "/members/a") != null
                    && znodes.exists(cluster + "/members/b") != null);
            ServerList reseeded = ServerList.decode(cluster + "/committed",
                    znodes.data(cluster + "/committed").getBytes(StandardCharsets.UTF_8));
            assertThat(reseeded.version()).isEqualTo(2);
            assertThat(reseeded.servers()).isEqualTo(memcached.addresses());

            List<String> after = memcached.addresses().subList(1, 3);
            assertThat(b.sync.proposeServers(after, 2)).isEqualTo(3);
            a.awaitSwitch(3);
            b.awaitSwitch(3);
            assertThat(a.state().servers()).isEqualTo(after).isEqualTo(b.state().servers());
        }
    }

    /**
     * A node that stays unreadable until someone fixes it is retried with a doubling wait, not
     * every 250 ms: across a fleet, a fixed pace would be thousands of requests a second for as
     * long as it takes a person to notice.
     */
    @Test
    void aNodeThatStaysUnreadableIsRetriedLessAndLessOften() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        try (CountingZooKeeperServer counting = CountingZooKeeperServer.start();
             TestMember a = TestMember.join(counting.connectString(), "paced", "a", before)) {
            long session = a.sync.readCluster().sessionId();
            try (CuratorFramework tool = TestMember.curator(counting.connectString())) {
                tool.setData().forPath(ROOT + "paced/committed", "version=x\n".getBytes(StandardCharsets.UTF_8));
                await().atMost(TestMember.AWAIT).until(() -> a.state().lastError() instanceof UnreadableZnodeException);
                long from = counting.requestsOf(session);
                long start = System.nanoTime();
                await().pollDelay(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(6)).until(() -> true);
                long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
                // One read a pass. At 250 ms a pass: about 20 in 5 s. Doubling from 250 ms: passes
                // after 0.25, 0.75, 1.75 and 3.75 s.
                assertThat(counting.requestsOf(session) - from).as("requests in %d ms", elapsedMillis)
                        .isLessThanOrEqualTo(8);

                tool.setData().forPath(ROOT + "paced/committed",
                        ("version=2\nservers=" + String.join(",", memcached.addresses()) + "\n").getBytes(StandardCharsets.UTF_8));
                a.awaitSwitch(2);
            }
        }
    }
}
