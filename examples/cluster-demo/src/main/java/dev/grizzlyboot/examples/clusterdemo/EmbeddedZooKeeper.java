package dev.grizzlyboot.examples.clusterdemo;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * A real, standalone ZooKeeper server in this JVM, through ZooKeeper's own embedding API, on a
 * free loopback port with a temporary data directory. Started and closed by one thread.
 */
final class EmbeddedZooKeeper implements AutoCloseable {

    private final ZooKeeperServerEmbedded server;
    private final int port;

    private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, int port) {
        this.server = server;
        this.port = port;
    }

    static EmbeddedZooKeeper start() throws Exception {
        int port = freePort();
        Properties configuration = new Properties();
        configuration.setProperty("clientPort", String.valueOf(port));
        configuration.setProperty("clientPortAddress", "127.0.0.1");
        configuration.setProperty("tickTime", "500");
        // No admin web server: it would take port 8080 and is not needed here.
        configuration.setProperty("admin.enableServer", "false");
        Path baseDir = Files.createTempDirectory("cluster-demo-zookeeper");
        ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder().baseDir(baseDir)
                .configuration(configuration).exitHandler(ExitHandler.LOG_ONLY).build();
        server.start(10_000);
        return new EmbeddedZooKeeper(server, port);
    }

    String connectString() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void close() {
        server.close();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
