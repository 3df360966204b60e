package dev.grizzlyboot.testsupport;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that runs a real ZooKeeper server in the JVM (Curator's {@link TestingServer})
 * on a free loopback port for the test class, and lets a test stop and restart it on the same
 * port. Modules that use it add {@code org.apache.curator:curator-test} to their test scope.
 */
public final class ZooKeeperExtension implements BeforeAllCallback, AfterAllCallback {

    private TestingServer server;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = new TestingServer(true);
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
