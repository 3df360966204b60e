package dev.grizzlyboot.testsupport;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that runs a real ZooKeeper server in the JVM (Curator's {@link TestingServer})
 * on a free loopback port for the test class, and lets a test stop and restart it on the same
 * port. Modules that use it add {@code org.apache.curator:curator-test} to their test scope.
 * By default the server takes ZooKeeper's 60 connections per client address, as every client of
 * a test comes from the loopback address; {@link #withoutConnectionLimit()} lifts that for tests
 * with hundreds of sessions.
 */
public final class ZooKeeperExtension implements BeforeAllCallback, AfterAllCallback {

    /** ZooKeeper's {@code maxClientCnxns}: -1 leaves its default (60), 0 is no limit. */
    private final int maxConnectionsPerAddress;
    private TestingServer server;

    /** A server with ZooKeeper's default limit of 60 connections per client address. */
    public ZooKeeperExtension() {
        this(-1);
    }

    private ZooKeeperExtension(int maxConnectionsPerAddress) {
        this.maxConnectionsPerAddress = maxConnectionsPerAddress;
    }

    /** A server that takes any number of connections from one address (hundreds of in-JVM members). */
    public static ZooKeeperExtension withoutConnectionLimit() {
        return new ZooKeeperExtension(0);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = maxConnectionsPerAddress < 0 ? new TestingServer(true)
                : new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, -1, maxConnectionsPerAddress), true);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** The connect string ({@code 127.0.0.1:port}) clients use. */
    public String connectString() {
        return started().getConnectString();
    }

    /** Stops the server; clients see the connection drop. Its data survives a {@link #restart()}. */
    public void stop() throws Exception {
        started().stop();
    }

    /** Starts the server again on the same port, with the same data. */
    public void restart() throws Exception {
        started().restart();
    }

    /** The underlying server, for anything this class does not cover. */
    public TestingServer server() {
        return started();
    }

    private TestingServer started() {
        if (server == null) {
            throw new IllegalStateException("ZooKeeper is not started: register the extension on a static field");
        }
        return server;
    }
}
