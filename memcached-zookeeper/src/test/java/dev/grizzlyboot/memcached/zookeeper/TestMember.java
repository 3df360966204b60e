package dev.grizzlyboot.memcached.zookeeper;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.MemcachedClientBuilder;
import dev.grizzlyboot.testsupport.Stalls;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * An in-JVM cluster member for tests: a memcached client with a sync attached, and every state it
 * reported on switching.
 */
final class TestMember implements AutoCloseable {

    static final Duration COMMIT_DELAY = Duration.ofMillis(800);
    static final Duration PREPARE_TIMEOUT = Duration.ofSeconds(15);
    static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);
    /** Deadline for awaiting anything in these tests. */
    static final Duration AWAIT = Duration.ofSeconds(20);
    /** How far apart (or from T) members may switch on this shared, 2-core machine. */
    static final long SWITCH_TOLERANCE_MILLIS = 100;
    /**
     * This JVM's stalls, measured while the tests run: a member that switched late because no
     * thread of this JVM got a CPU (a loaded machine, a long safepoint) is not late by the protocol.
     */
    private static final Stalls STALLS = new Stalls();

    final MemcachedClient client;
    final ZooKeeperServerListSync sync;
    final List<SyncState> switches = new CopyOnWriteArrayList<>();

    private TestMember(MemcachedClient client, ZooKeeperServerListSync.Builder builder) {
        this.client = client;
        this.sync = builder.onApplied(switches::add).start(client);
    }

    /** A member with its own ZooKeeper client on {@code connectString}. */
    static TestMember join(String connectString, String cluster, String memberId, List<String> servers) {
        return join(cluster, memberId, servers, builder -> builder.connectString(connectString));
    }

    static TestMember join(String cluster, String memberId, List<String> servers,
            UnaryOperator<ZooKeeperServerListSync.Builder> zooKeeper) {
        return join(cluster, memberId, servers, UnaryOperator.identity(), zooKeeper);
    }

    /** A member whose memcached client is built with {@code memcached} applied (e.g. a small footprint). */
    static TestMember join(String cluster, String memberId, List<String> servers,
            UnaryOperator<MemcachedClientBuilder> memcached, UnaryOperator<ZooKeeperServerListSync.Builder> zooKeeper) {
        MemcachedClient client = memcached.apply(MemcachedClient.builder().servers(servers)).build();
        return new TestMember(client, zooKeeper.apply(ZooKeeperServerListSync.builder()
                .clusterName(cluster)
                .memberId(memberId)
                .commitDelay(COMMIT_DELAY)
                .prepareTimeout(PREPARE_TIMEOUT)
                .sessionTimeout(SESSION_TIMEOUT)
                .connectionTimeout(SESSION_TIMEOUT)));
    }

    /**
     * How far apart two switch times (or a switch and T) may be: {@link #SWITCH_TOLERANCE_MILLIS}
     * plus however long this JVM was stalled from a tolerance before the earlier to the later.
     */
    static long switchTolerance(long earlierMillis, long laterMillis) {
        return SWITCH_TOLERANCE_MILLIS + stalledAround(STALLS, earlierMillis, laterMillis);
    }

    /**
     * How long the JVM {@code stalls} measures was stalled from a tolerance before the earlier of
     * two switch times to the later: the allowance {@link #switchTolerance} adds for this JVM, and
     * a member in another JVM reports for its own.
     */
    static long stalledAround(Stalls stalls, long earlierMillis, long laterMillis) {
        return stalls.stalledMillis(Math.min(earlierMillis, laterMillis) - SWITCH_TOLERANCE_MILLIS,
                Math.max(earlierMillis, laterMillis));
    }

    SyncState state() {
        return sync.state();
    }

    /** The state reported when this member switched to {@code version}, or null (so far). */
    SyncState switchTo(long version) {
        return switches.stream().filter(state -> state.version() == version).findFirst().orElse(null);
    }

    /**
     * The state reported when this member switched to {@code version}, waiting up to {@link #AWAIT}:
     * the listener runs just after the switch is visible in {@link #state()}.
     */
    SyncState awaitSwitch(long version) {
        return await().atMost(AWAIT).until(() -> switchTo(version), Objects::nonNull);
    }

    @Override
    public void close() {
        sync.close();
        client.close();
    }

    /** A started Curator client the test owns, with the test session timeout. */
    static CuratorFramework curator(String connectString) {
        return curator(connectString, SESSION_TIMEOUT);
    }

    /** A started Curator client the test owns, with {@code sessionTimeout}. */
    static CuratorFramework curator(String connectString, Duration sessionTimeout) {
        CuratorFramework curator = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs((int) sessionTimeout.toMillis()).connectionTimeoutMs((int) sessionTimeout.toMillis())
                .retryPolicy(new RetryOneTime(100)).build();
        curator.start();
        return curator;
    }

    /**
     * A member stuck in prepare: a live session holding a member node of {@code cluster} that
     * never acknowledges, so it keeps any barrier open until the test closes it.
     */
    static CuratorFramework stuck(String connectString, String cluster) throws Exception {
        CuratorFramework stuck = curator(connectString);
        stuck.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath("/grizzly-memcached/" + cluster + "/members/stuck");
        return stuck;
    }

    /**
     * Expires a Curator client's session on the server, as a long pause or partition would: a
     * second handle attaches to the same session and closes it, so the server drops the session
     * and its ephemeral nodes at once.
     */
    static void expireSession(CuratorFramework curator, String connectString) throws Exception {
        ZooKeeper victim = curator.getZookeeperClient().getZooKeeper();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper killer = new ZooKeeper(connectString, (int) SESSION_TIMEOUT.toMillis(), event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, victim.getSessionId(), victim.getSessionPasswd());
        try {
            if (!connected.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("could not attach to the session to expire it");
            }
        } finally {
            killer.close();
        }
    }
}
