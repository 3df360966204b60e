package dev.grizzlyboot.benchmarks.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.zookeeper.SyncState;
import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;

/**
 * One benchmark member: its own memcached client (one I/O thread, one connection per server) and
 * its own ZooKeeper session, and the moment it switched to each version. Thread-safe.
 */
final class SyncMember implements AutoCloseable {

    private final MemcachedClient client;
    private final ZooKeeperServerListSync sync;
    private final Map<Long, SyncState> switches = new ConcurrentHashMap<>();

    SyncMember(String connectString, String cluster, String memberId, List<String> servers, SyncOptions options) {
        client = MemcachedClient.builder().servers(servers).ioThreads(1).connectionsPerServer(1, 1).build();
        sync = ZooKeeperServerListSync.builder()
                .connectString(connectString)
                .clusterName(cluster)
                .memberId(memberId)
                .commitDelay(options.commitDelay())
                .sessionTimeout(options.sessionTimeout())
                .prepareTimeout(options.sessionTimeout().plus(Duration.ofSeconds(20)))
                .connectionTimeout(options.sessionTimeout())
                .onApplied(state -> switches.put(state.version(), state))
                .start(client);
    }

    SyncState state() {
        return sync.state();
    }

    /** What this member reported when it switched to {@code version}, or null. */
    SyncState switchTo(long version) {
        return switches.get(version);
    }

    long proposeServers(List<String> servers) {
        return sync.proposeServers(servers, sync.state().version());
    }

    @Override
    public void close() {
        sync.close();
        client.close();
    }
}
