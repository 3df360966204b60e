package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.grizzlyboot.memcached.zookeeper.SyncState.Phase;
import dev.grizzlyboot.testsupport.CountingZooKeeperServer;
import dev.grizzlyboot.testsupport.CountingZooKeeperServer.Counts;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZooKeeper work of one server-list change, and of members joining, grows linearly with the
 * number of members, by the server's own count of the requests it processed and the watch
 * notifications it sent (not a timing): twice the members, about twice the work, and a small
 * constant per member.
 */
class ZooKeeperWorkPerChangeTest {

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperWorkPerChangeTest.class);

    /** "About twice": room for a retried call or two on a loaded machine, far below the old N^1.7. */
    private static final double MAX_GROWTH_FOR_TWICE_THE_MEMBERS = 2.2;
    private static final int MAX_REQUESTS_PER_MEMBER = 20;
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @Test
    void requestsAndWatchEventsPerChangeAndJoinRequestsAtFortyMembersAreAboutTwiceThoseAtTwenty() throws Exception {
        try (CountingZooKeeperServer zooKeeper = CountingZooKeeperServer.start()) {
            Work atTwenty = measure(zooKeeper, 20);
            Work atForty = measure(zooKeeper, 40);
            Counts twenty = atTwenty.change();
            Counts forty = atForty.change();
            log.info("one change, by the server's count: 20 members {} requests, {} watch events ({}); "
                    + "40 members {} requests, {} watch events ({})", twenty.requests(), twenty.watchEvents(),
                    twenty.requestsByOperation(), forty.requests(), forty.watchEvents(), forty.requestsByOperation());

            assertThat((double) forty.requests()).as("requests per change, 40 members against 20")
                    .isLessThanOrEqualTo(MAX_GROWTH_FOR_TWICE_THE_MEMBERS * twenty.requests());
            assertThat((double) forty.watchEvents()).as("watch events per change, 40 members against 20")
                    .isLessThanOrEqualTo(MAX_GROWTH_FOR_TWICE_THE_MEMBERS * twenty.watchEvents());
            assertThat(forty.requests()).as("requests per change, clean-up included")
                    .isLessThanOrEqualTo(MAX_REQUESTS_PER_MEMBER * 40L);

            log.info("joining, by the server's count: 20 members {} requests, 40 members {}",
                    atTwenty.join().requests(), atForty.join().requests());
            assertThat((double) atForty.join().requests()).as("requests for 40 members to join against 20")
                    .isLessThanOrEqualTo(MAX_GROWTH_FOR_TWICE_THE_MEMBERS * atTwenty.join().requests());
        }
    }

    /**
     * Once a change is committed nobody waits for members any more, so each member has dropped its
     * watch on {@code members}: a member joining between changes costs the other members no work.
     * Counted per session by the server: while the late member joins, the others make no request,
     * and the joiner makes as many as a member joining before any change (when nobody has ever
     * watched {@code members}). (ZooKeeper cannot drop one watcher of a session on the server, so
     * the server still sends each member that once waited one notification, which its client
     * discards: that is why this counts requests, not watch events.) Per session, so that what
     * another session does at the same moment (a reconnect on a loaded machine) is not laid at the
     * joiner's door.
     */
    @Test
    void aMemberJoiningBetweenChangesCostsTheOtherMembersNothing() throws Exception {
        try (CountingZooKeeperServer zooKeeper = CountingZooKeeperServer.start()) {
            List<String> before = memcached.addresses().subList(0, 2);
            List<CuratorFramework> sessions = new ArrayList<>();
            List<Long> sessionIds = new ArrayList<>();
            List<TestMember> members = new ArrayList<>();
            try {
                for (String id : List.of("m0", "m1", "m2", "late")) {
                    CuratorFramework session = TestMember.curator(zooKeeper.connectString(), SESSION_TIMEOUT);
                    assertThat(session.blockUntilConnected((int) SESSION_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
                    sessions.add(session);
                    sessionIds.add(session.getZookeeperClient().getZooKeeper().getSessionId());
                }
                for (int i = 0; i < 3; i++) {
                    members.add(join(sessions.get(i), "m" + i, before));
                }
                settled(zooKeeper);
                long firstJoin = zooKeeper.requestsOf(sessionIds.get(2));

                change(members, memcached.addresses(), 2);
                settled(zooKeeper);
                List<Long> othersBefore = sessionIds.subList(0, 3).stream().map(zooKeeper::requestsOf).toList();
                members.add(join(sessions.get(3), "late", before));
                settled(zooKeeper);
                List<Long> othersAfter = sessionIds.subList(0, 3).stream().map(zooKeeper::requestsOf).toList();
                long lateJoin = zooKeeper.requestsOf(sessionIds.get(3));
                log.info("requests of a join before any change: {}; of a join after one: {}; of the others meanwhile: {} -> {}",
                        firstJoin, lateJoin, othersBefore, othersAfter);

                assertThat(members.get(3).state().version()).isEqualTo(2);
                assertThat(othersAfter).as("requests of the other members' sessions while a member joins between changes")
                        .isEqualTo(othersBefore);
                assertThat(lateJoin).as("requests of a join between changes, against one before any change")
                        .isEqualTo(firstJoin);
            } finally {
                members.forEach(TestMember::close);
                sessions.forEach(CuratorFramework::close);
            }
        }
    }

    /**
     * Joins and waits until the member's pass has ended in sync: {@code join} returns once the list
     * is adopted, in the middle of that pass, and a pass slower than {@link #settled}'s 300 ms
     * between two requests on a loaded machine would otherwise be counted short.
     */
    private static TestMember join(CuratorFramework session, String memberId, List<String> servers) {
        TestMember member = TestMember.join("quiet-join", memberId, servers, builder -> builder.curator(session));
        await().atMost(TestMember.AWAIT).until(() -> member.state().phase() == Phase.IN_SYNC);
        return member;
    }

    /**
     * What {@code n} members joining one by one cost, and what a change cost them.
     *
     * @param join   from the first member starting until all have joined and ZooKeeper is quiet
     * @param change a second change, from the proposal until ZooKeeper is quiet again: it includes
     *               the clean-up of the first change's barrier with its {@code n} acknowledgements
     */
    private record Work(Counts join, Counts change) {
    }

    private static Work measure(CountingZooKeeperServer zooKeeper, int n) {
        String cluster = "members-" + n;
        List<String> before = memcached.addresses().subList(0, 2);
        List<TestMember> members = new ArrayList<>();
        try {
            Counts beforeJoining = settled(zooKeeper);
            for (int i = 0; i < n; i++) {
                // Sessions longer than the other tests': an expiry on a loaded machine would add a
                // rejoin's requests to one count and say nothing about the protocol.
                members.add(TestMember.join(cluster, "m" + i, before, builder -> builder
                        .connectString(zooKeeper.connectString()).sessionTimeout(SESSION_TIMEOUT)
                        .connectionTimeout(SESSION_TIMEOUT)));
            }
            Counts joined = settled(zooKeeper);
            change(members, memcached.addresses(), 2);
            Counts start = settled(zooKeeper);
            change(members, before, 3);
            return new Work(joined.minus(beforeJoining), settled(zooKeeper).minus(start));
        } finally {
            members.forEach(TestMember::close);
        }
    }

    private static void change(List<TestMember> members, List<String> servers, long version) {
        assertThat(members.get(1).sync.proposeServers(servers, version - 1)).isEqualTo(version);
        await().atMost(TestMember.AWAIT).until(() -> members.stream().allMatch(member -> member.switchTo(version) != null
                && member.state().committedVersion() == version && member.state().phase() == Phase.IN_SYNC));
        assertThat(members).allSatisfy(member -> assertThat(member.client.servers()).hasToString(servers.toString()));
    }

    /** The counts once two readings 300 ms apart agree: the members have done what the last step asked of them. */
    private static Counts settled(CountingZooKeeperServer zooKeeper) {
        AtomicReference<Counts> last = new AtomicReference<>(zooKeeper.counts());
        await().atMost(TestMember.AWAIT).pollDelay(Duration.ofMillis(300)).pollInterval(Duration.ofMillis(300))
                .until(() -> {
                    Counts now = zooKeeper.counts();
                    return now.equals(last.getAndSet(now));
                });
        return last.get();
    }
}
