package dev.grizzlyboot.thrift.client;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.LoggerFactory;

/**
 * A Thrift client over pooled Grizzly connections to one or more servers speaking the framed
 * transport. Calls go round-robin across the servers in rotation; a server whose connect fails, or
 * that lets calls time out repeatedly, leaves the rotation until a background monitor finds it
 * answering again. Get a typed proxy with
 * {@link #proxy(Class)}.
 *
 * <p>The client and its proxies are thread-safe: each call borrows a connection for its duration.
 * Close the client to close every connection and stop the monitor.
 */
public final class ThriftClient implements AutoCloseable {
    private static final int MONITOR_THREADS = 4;

    private final ConnectionFactory factory;
    private final ServerRotation rotation;
    private final CallRunner runner;
    private final ScheduledExecutorService monitor;

    ThriftClient(ClientSettings settings) {
        this.factory = new ConnectionFactory(settings);
        List<ServerPool> pools = new ArrayList<>();
        for (InetSocketAddress address : settings.servers) {
            pools.add(new ServerPool(address, factory, settings));
        }
        this.rotation = new ServerRotation(pools);
        this.runner = new CallRunner(rotation, settings.retries, settings.name, settings.callObserver);
        // Each server has its own schedule, so a probe waiting on one hung server does not hold up
        // the others (up to MONITOR_THREADS hung servers at once).
        this.monitor = Executors.newScheduledThreadPool(Math.min(pools.size(), MONITOR_THREADS), task -> {
            Thread thread = new Thread(task, "grizzlyboot-thrift-client-monitor");
            thread.setDaemon(true);
            return thread;
        });
        long interval = settings.healthCheckInterval.toMillis();
        for (ServerPool pool : pools) {
            monitor.scheduleWithFixedDelay(() -> maintain(pool), 0, interval, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Starts a builder.
     *
     * @return a builder with the defaults listed in docs/thrift.md
     */
    public static ThriftClientBuilder builder() {
        return new ThriftClientBuilder();
    }

    /**
     * Returns a proxy for a service served by a plain (not multiplexed) processor, with no method
     * marked idempotent.
     *
     * @param iface the generated interface, e.g. {@code Calculator.Iface.class}
     * @param <T>   the interface type
     * @return a thread-safe proxy
     * @throws IllegalArgumentException if {@code iface} is not a Thrift-generated {@code Iface}
     */
    public <T> T proxy(Class<T> iface) {
        return proxyBuilder(iface).build();
    }

    /**
     * Starts a proxy with options such as a multiplexed service name or idempotent methods.
     *
     * @param iface the generated interface, e.g. {@code Calculator.Iface.class}
     * @param <T>   the interface type
     * @return a proxy builder
     * @throws IllegalArgumentException if {@code iface} is not a Thrift-generated {@code Iface}
     */
    public <T> ThriftProxyBuilder<T> proxyBuilder(Class<T> iface) {
        return new ThriftProxyBuilder<>(iface, runner);
    }

    /**
     * Lists every server of this client, in rotation or not, as {@code host:port}.
     *
     * @return the configured servers, in the order given to the builder
     */
    public List<String> servers() {
        List<String> all = new ArrayList<>();
        for (ServerPool pool : rotation.pools()) {
            all.add(pool.name);
        }
        return all;
    }

    /**
     * Lists the servers currently in rotation, as {@code host:port}.
     *
     * @return the healthy servers
     */
    public List<String> serversInRotation() {
        List<String> healthy = new ArrayList<>();
        for (ServerPool pool : rotation.pools()) {
            if (pool.healthy()) {
                healthy.add(pool.name);
            }
        }
        return healthy;
    }

    /**
     * Returns how many connections, over all servers, are lent to calls right now.
     *
     * @return busy connection count
     */
    public int busyConnections() {
        return rotation.pools().stream().mapToInt(ServerPool::busy).sum();
    }

    /**
     * Returns how many open connections, over all servers, wait in the pools for a call.
     *
     * @return idle connection count
     */
    public int idleConnections() {
        return rotation.pools().stream().mapToInt(ServerPool::idle).sum();
    }

    /** Closes every connection and stops the monitor; calls after this fail. */
    @Override
    public void close() {
        monitor.shutdownNow();
        for (ServerPool pool : rotation.pools()) {
            pool.close();
        }
        factory.close();
    }

    private static void maintain(ServerPool pool) {
        try {
            pool.maintain();
        } catch (RuntimeException e) {
            // An escaped exception would cancel the schedule and the server would never come back.
            LoggerFactory.getLogger(ThriftClient.class).warn("health check of {} failed", pool.name, e);
        }
    }
}
