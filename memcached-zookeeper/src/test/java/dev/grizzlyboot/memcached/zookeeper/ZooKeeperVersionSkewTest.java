package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.memcached.zookeeper.SyncState.Phase;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperProcess;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Version skew: this module's ZooKeeper client (the one Curator brings) against a server of the
 * oldest release line we support, run from its own jars in its own JVM. The server-list sync's
 * two-phase barrier must work there as it does on a matching server: three members commit a
 * proposed list and switch to it at one agreed moment.
 */
class ZooKeeperVersionSkewTest {

    /** Where the build copied the older server's jars (memcached-zookeeper/pom.xml). */
    private static final String JARS_PROPERTY = "grizzlyboot.older-zookeeper.jars";

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @Test
    void membersOnANewerClientSwitchTogetherThroughAnOlderServer() throws Exception {
        List<String> before = memcached.addresses().subList(0, 2);
        List<String> after = memcached.addresses();
        try (ZooKeeperProcess zooKeeper = ZooKeeperProcess.start(Path.of(System.getProperty(JARS_PROPERTY)));
                CuratorFramework observer = TestMember.curator(zooKeeper.connectString())) {
            assertThat(zooKeeper.version()).startsWith("3.8.");
            assertThat(Version.getFullVersion()).as("the client").startsWith("3.9.");
            // Closed before the server: a member closing against a dead server waits out its retries.
            List<TestMember> members = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    members.add(TestMember.join(zooKeeper.connectString(), "skew", "member-" + i, before));
                }
                await().atMost(TestMember.AWAIT)
                        .until(() -> observer.getChildren().forPath("/grizzly-memcached/skew/members").size() == 3);

                assertThat(members.get(1).sync.proposeServers(after, 1)).isEqualTo(2);

                long commitAt = members.get(0).awaitSwitch(2).commitAtMillis();
                for (TestMember member : members) {
                    SyncState switched = member.awaitSwitch(2);
                    assertThat(switched.commitAtMillis()).isEqualTo(commitAt);
                    // At T: precision on a loaded machine is the other barrier tests' subject; here, never
                    // early and not a commit delay late (one member in the same JVM was 109 ms late at load 23).
                    assertThat(switched.appliedAtMillis() - commitAt)
                            .isBetween(-TestMember.SWITCH_TOLERANCE_MILLIS, TestMember.COMMIT_DELAY.toMillis());
                    assertThat(member.client.servers()).hasToString(after.toString());
                }
                await().atMost(TestMember.AWAIT).until(() -> members.stream()
                        .allMatch(member -> member.state().committedVersion() == 2 && member.state().phase() == Phase.IN_SYNC));
                assertThat(members).allSatisfy(member -> assertThat(member.state().lastError()).isNull());
            } finally {
                members.forEach(TestMember::close);
            }
        }
    }
}
