package dev.grizzlyboot.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.testsupport.CountingZooKeeperServer.Counts;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

class CountingZooKeeperServerTest {

    @Test
    void countsEachRequestByOperationAndEachWatchNotificationItSends() throws Exception {
        try (CountingZooKeeperServer server = CountingZooKeeperServer.start()) {
            CountDownLatch connected = new CountDownLatch(1);
            ZooKeeper zooKeeper = new ZooKeeper(server.connectString(), 10_000, event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            });
            try {
                assertThat(connected.await(10, TimeUnit.SECONDS)).as("connected").isTrue();
                Counts start = server.counts();
                CountDownLatch notified = new CountDownLatch(2);
                zooKeeper.create("/counted", bytes("1"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zooKeeper.getData("/counted", event -> notified.countDown(), null);
                zooKeeper.exists("/counted", event -> notified.countDown());
                zooKeeper.setData("/counted", bytes("2"), -1);
                assertThat(notified.await(10, TimeUnit.SECONDS)).as("both watches fired").isTrue();

                Counts used = server.counts().minus(start);
                assertThat(used.requestsByOperation())
                        .isEqualTo(Map.of("create", 1L, "getData", 1L, "exists", 1L, "setData", 1L));
                assertThat(used.requests()).isEqualTo(4);
                // Two watchers of one client on one node: the server sends that connection one notification.
                assertThat(used.watchEvents()).isEqualTo(1);
            } finally {
                zooKeeper.close();
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
