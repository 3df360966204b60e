package dev.grizzlyboot.thrift.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SSLContext;

import dev.grizzlyboot.thrift.ThriftProtocol;
import dev.grizzlyboot.thrift.observation.CallObserver;
import dev.grizzlyboot.thrift.transport.ThriftFrameFilter;
import dev.grizzlyboot.thrift.transport.ThriftServerFilter;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TProcessor;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.nio.transport.TCPNIOServerConnection;
import org.glassfish.grizzly.nio.transport.TCPNIOTransport;
import org.glassfish.grizzly.nio.transport.TCPNIOTransportBuilder;
import org.glassfish.grizzly.ssl.SSLEngineConfigurator;
import org.glassfish.grizzly.ssl.SSLFilter;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;
import org.glassfish.grizzly.utils.DelayedExecutor;
import org.glassfish.grizzly.utils.IdleTimeoutFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Thrift server on Grizzly NIO speaking the framed transport, so libthrift's
 * {@code TFramedTransport} clients and our {@code ThriftClient} can call it. Build one with
 * {@link #builder(TProcessor)}, {@link #start()} it, and {@link #stop(Duration)} it to finish
 * in-flight calls before closing.
 *
 * <p>Start and stop are synchronized and may be called from any thread; a server starts once.
 * Which thread runs the handler is set by the {@link IoStrategy}.
 */
public final class ThriftServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ThriftServer.class);

    private final ServerSettings settings;
    private final ThriftServerFilter serverFilter;
    /** Null when the server filter frames requests itself (connection readers). */
    private final ThriftFrameFilter frameFilter;
    private TCPNIOTransport transport;
    private DelayedExecutor idleChecks;
    private InetSocketAddress boundAddress;
    private boolean started;
    private boolean stopped;

    ThriftServer(ServerSettings settings) {
        this.settings = settings;
        TConfiguration configuration = new TConfiguration(
                settings.maxFrameSize, settings.maxFrameSize, TConfiguration.DEFAULT_RECURSION_DEPTH);
        ThriftFrameFilter framing = new ThriftFrameFilter(settings.maxFrameSize);
        if (settings.ioStrategy.holdsConnections() && settings.sslContext == null) {
            this.frameFilter = null;
            this.serverFilter = new ThriftServerFilter(settings.processor, settings.protocol.factory(), configuration,
                    settings.callObserver, framing, workerLimit(settings));
        } else {
            this.frameFilter = framing;
            this.serverFilter = new ThriftServerFilter(settings.processor, settings.protocol.factory(), configuration,
                    settings.callObserver, settings.ioStrategy.queuesCalls());
        }
    }

    /**
     * Starts a builder for a server running {@code processor}.
     *
     * @param processor a blocking processor such as {@code new Calculator.Processor<>(handler)} or a
     *                  {@code TMultiplexedProcessor}; it must be thread-safe
     * @return a builder with the defaults listed in docs/thrift.md
     */
    public static ThriftServerBuilder builder(TProcessor processor) {
        return new ThriftServerBuilder(processor);
    }

    /**
     * Binds the port and starts serving.
     *
     * @return this server
     * @throws ThriftServerBindException if the address cannot be bound
     * @throws IllegalStateException if the server was already started
     */
    public synchronized ThriftServer start() {
        if (started) {
            throw new IllegalStateException("a ThriftServer starts only once");
        }
        started = true;
        FilterChainBuilder chain = FilterChainBuilder.stateless().add(serverFilter.transportFilter());
        if (!settings.idleTimeout.isZero()) {
            idleChecks = IdleTimeoutFilter.createDefaultIdleDelayedExecutor(idleCheckInterval(), TimeUnit.MILLISECONDS);
            idleChecks.start();
            chain.add(serverFilter.idleTimeoutFilter(idleChecks, settings.idleTimeout));
        }
        if (settings.sslContext != null) {
            chain.add(new SSLFilter(
                    new SSLEngineConfigurator(settings.sslContext, false, settings.needClientAuth, false),
                    new SSLEngineConfigurator(settings.sslContext, true, false, false)));
        }
        if (frameFilter != null) {
            chain.add(frameFilter);
        }
        chain.add(serverFilter);

        TCPNIOTransportBuilder builder = TCPNIOTransportBuilder.newInstance()
                .setName("grizzlyboot-thrift-server")
                .setIOStrategy(settings.ioStrategy.grizzlyStrategy())
                .setTcpNoDelay(true)
                .setReuseAddress(true)
                .setSelectorRunnersCount(settings.selectorThreads)
                .setSelectorThreadPoolConfig(ThreadPoolConfig.defaultConfig()
                        .setPoolName("grizzlyboot-thrift-selector")
                        .setCorePoolSize(settings.selectorThreads)
                        .setMaxPoolSize(settings.selectorThreads));
        boolean givenExecutor = settings.ioStrategy.needsWorkerPool() && settings.workerExecutor != null;
        if (settings.ioStrategy.needsWorkerPool() && !givenExecutor) {
            builder.setWorkerThreadPoolConfig(ThreadPoolConfig.defaultConfig()
                    .setPoolName("grizzlyboot-thrift-worker")
                    .setCorePoolSize(settings.workerThreads)
                    .setMaxPoolSize(settings.workerThreads));
        } else {
            builder.setWorkerThreadPoolConfig(null);
        }
        transport = builder.setProcessor(chain.build()).build();
        if (givenExecutor) {
            transport.setWorkerThreadPool(settings.workerExecutor);
        }
        try {
            transport.start();
            TCPNIOServerConnection server = transport.bind(settings.host, settings.port, settings.backlog);
            boundAddress = (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            shutdownTransport();
            throw new ThriftServerBindException(settings.host, settings.port, e);
        }
        log.info("Thrift server listening on {} ({}, {})",
                boundAddress, settings.protocol, settings.ioStrategy);
        return this;
    }

    /**
     * Returns the port the server listens on, useful after binding port 0.
     *
     * @return the bound port
     * @throws IllegalStateException if the server is not started
     */
    public synchronized int port() {
        return address().getPort();
    }

    /**
     * Returns the address the server listens on.
     *
     * @return the bound address
     * @throws IllegalStateException if the server is not started
     */
    public synchronized InetSocketAddress address() {
        if (boundAddress == null) {
            throw new IllegalStateException("the server is not started");
        }
        return boundAddress;
    }

    /**
     * Tells whether the server listens: started and not yet stopped.
     *
     * @return true between {@link #start()} and {@link #stop(Duration)}
     */
    public synchronized boolean isRunning() {
        return boundAddress != null && !stopped;
    }

    /**
     * Returns how many client connections are open.
     *
     * @return open connection count
     */
    public int openConnections() {
        return serverFilter.openConnections();
    }

    /**
     * Stops gracefully: stops accepting, closes idle connections, lets running calls reply and
     * then closes their connections; whatever is still running at the deadline is cut off.
     *
     * @param deadline how long to wait for running calls
     * @return true if every call finished before the deadline
     */
    public synchronized boolean stop(Duration deadline) {
        if (!started || stopped) {
            return true;
        }
        stopped = true;
        transport.unbindAll();
        boolean drained;
        try {
            serverFilter.drain().get(deadline.toNanos(), TimeUnit.NANOSECONDS);
            drained = true;
        } catch (TimeoutException | ExecutionException e) {
            drained = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drained = false;
        }
        shutdownTransport();
        log.info("Thrift server on {} stopped{}",
                boundAddress, drained ? "" : " with calls cut off at the deadline");
        return drained;
    }

    /** Stops with the builder's default stop deadline. */
    @Override
    public void close() {
        stop(settings.stopDeadline);
    }

    private void shutdownTransport() {
        try {
            transport.shutdownNow();
        } catch (IOException e) {
            log.warn("error while shutting down the Thrift server transport", e);
        }
        if (idleChecks != null) {
            idleChecks.stop();
            idleChecks.destroy();
        }
    }

    /** The most threads the worker pool runs; unbounded for a given executor of unknown size. */
    private static int workerLimit(ServerSettings settings) {
        if (settings.workerExecutor == null) {
            return settings.workerThreads;
        }
        return settings.workerExecutor instanceof ThreadPoolExecutor pool ? pool.getMaximumPoolSize() : Integer.MAX_VALUE;
    }

    /** Checks often enough that a connection closes within about a quarter of its timeout late. */
    private long idleCheckInterval() {
        return Math.max(10, Math.min(1000, settings.idleTimeout.toMillis() / 4));
    }

    /** The validated, immutable options a builder produced. */
    static final class ServerSettings {
        final TProcessor processor;
        final String host;
        final int port;
        final int backlog;
        final IoStrategy ioStrategy;
        final ThriftProtocol protocol;
        final int workerThreads;
        final ExecutorService workerExecutor;
        final CallObserver callObserver;
        final int selectorThreads;
        final int maxFrameSize;
        final Duration idleTimeout;
        final Duration stopDeadline;
        final SSLContext sslContext;
        final boolean needClientAuth;

        ServerSettings(ThriftServerBuilder b) {
            this.processor = Objects.requireNonNull(b.processor, "processor");
            this.host = b.host;
            this.port = b.port;
            this.backlog = b.backlog;
            this.ioStrategy = b.ioStrategy;
            this.protocol = b.protocol;
            this.workerThreads = b.workerThreads;
            this.workerExecutor = b.workerExecutor;
            this.callObserver = b.callObserver;
            this.selectorThreads = b.selectorThreads;
            this.maxFrameSize = b.maxFrameSize;
            this.idleTimeout = b.idleTimeout;
            this.stopDeadline = b.stopDeadline;
            this.sslContext = b.sslContext;
            this.needClientAuth = b.needClientAuth;
        }
    }
}
