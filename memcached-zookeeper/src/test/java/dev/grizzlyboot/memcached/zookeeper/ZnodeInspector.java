package dev.grizzlyboot.memcached.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Reads znodes directly, so tests check what the members wrote. Connects on first use (JUnit does
 * not promise to start it after the {@link ZooKeeperExtension}); disconnects after the class.
 */
final class ZnodeInspector implements AfterAllCallback {

    private final ZooKeeperExtension zooKeeper;
    private CuratorFramework curator;

    ZnodeInspector(ZooKeeperExtension zooKeeper) {
        this.zooKeeper = zooKeeper;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (curator != null) {
            curator.close();
        }
    }

    /** The node's stat, or null if it does not exist. */
    Stat exists(String path) throws Exception {
        return connected().checkExists().forPath(path);
    }

    /** The node's content as text, or null if it does not exist. */
    String data(String path) throws Exception {
        try {
            return new String(connected().getData().forPath(path), StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    /** Deletes the node and everything below it, as someone tidying ZooKeeper by hand would. */
    void deleteTree(String path) throws Exception {
        connected().delete().quietly().deletingChildrenIfNeeded().forPath(path);
    }

    /** Overwrites the node's content, as someone editing it with {@code zkCli set} would. */
    void write(String path, String text) throws Exception {
        connected().setData().forPath(path, text.getBytes(StandardCharsets.UTF_8));
    }

    List<String> children(String path) throws Exception {
        return connected().getChildren().forPath(path);
    }

    private synchronized CuratorFramework connected() {
        if (curator == null) {
            curator = TestMember.curator(zooKeeper.connectString());
        }
        return curator;
    }
}
