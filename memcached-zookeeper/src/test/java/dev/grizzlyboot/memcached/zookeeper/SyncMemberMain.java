package dev.grizzlyboot.memcached.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.Stalls;

/**
 * A cluster member in its own JVM, for the cross-process tests. Arguments: connect string,
 * cluster, member id, commit delay ms, prepare timeout ms, session timeout ms, servers (comma
 * list). Reports on stdout, lines prefixed {@code @@}: {@code JOINED version} once it has joined,
 * and {@code APPLIED version appliedAtMillis commitAtMillis stalledMillis} at each switch, the last
 * field how long this JVM was stalled around the switch ({@link TestMember#stalledAround}). Leaves
 * when stdin closes.
 */
public final class SyncMemberMain {

    private SyncMemberMain() {
    }

    public static void main(String[] args) throws IOException {
        try (Stalls stalls = new Stalls();
             MemcachedClient client = MemcachedClient.builder().servers(List.of(args[6])).build();
             ZooKeeperServerListSync sync = ZooKeeperServerListSync.builder()
                     .connectString(args[0])
                     .clusterName(args[1])
                     .memberId(args[2])
                     .commitDelay(Duration.ofMillis(Long.parseLong(args[3])))
                     .prepareTimeout(Duration.ofMillis(Long.parseLong(args[4])))
                     .sessionTimeout(Duration.ofMillis(Long.parseLong(args[5])))
                     // A JVM that has just started loads Curator and ZooKeeper as it connects; on a busy
                     // machine that can take longer than the default 5 s, and it would join as version 0.
                     .connectionTimeout(Duration.ofSeconds(20))
                     .onApplied(state -> report("APPLIED " + state.version() + " " + state.appliedAtMillis() + " "
                             + state.commitAtMillis() + " "
                             + TestMember.stalledAround(stalls, state.commitAtMillis(), state.appliedAtMillis())))
                     .start(client)) {
            report("JOINED " + sync.state().version());
            InputStream in = System.in;
            while (in.read() >= 0) {
                // runs until the parent closes stdin
            }
        }
    }

    private static synchronized void report(String line) {
        System.out.println("@@ " + line);
        System.out.flush();
    }
}
