package dev.grizzlyboot.testsupport;

import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that starts real memcached processes before the test class and kills them
 * after it. Before each test, killed servers are restarted and paused ones resumed, so a fault
 * injected by one test does not leak into the next. Register it on a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static MemcachedExtension memcached = MemcachedExtension.servers(3);
 * }</pre>
 *
 * Fails (never skips) with {@link MemcachedNotInstalledException} when memcached is missing.
 */
public final class MemcachedExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {

    private final int count;
    private final MemcachedOptions options;
    private MemcachedServers servers;

    private MemcachedExtension(int count, MemcachedOptions options) {
        this.count = count;
        this.options = options;
    }

    /** One server with default options. */
    public static MemcachedExtension server() {
        return servers(1);
    }

    /** {@code count} servers with default options. */
    public static MemcachedExtension servers(int count) {
        return new MemcachedExtension(count, MemcachedOptions.defaults());
    }

    /** {@code count} servers with the given options. */
    public static MemcachedExtension servers(int count, MemcachedOptions options) {
        return new MemcachedExtension(count, options);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        servers = MemcachedServers.start(count, options);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        servers.heal();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (servers != null) {
            servers.close();
        }
    }

    /** The first (or only) server. */
    public MemcachedProcess first() {
        return get(0);
    }

    /** The i-th server (0-based). */
    public MemcachedProcess get(int index) {
        return started().get(index);
    }

    /** {@code host:port} of every server. */
    public List<String> addresses() {
        return started().addresses();
    }

    /** The addresses joined with commas. */
    public String addressList() {
        return started().addressList();
    }

    /** The whole group. */
    public MemcachedServers servers() {
        return started();
    }

    private MemcachedServers started() {
        if (servers == null) {
            throw new IllegalStateException("memcached is not started: register the extension on a static field");
        }
        return servers;
    }
}
