package dev.grizzlyboot.memcached.internal.connection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketAddress;

import javax.net.ssl.SSLEngine;

import dev.grizzlyboot.memcached.IoStrategy;
import dev.grizzlyboot.memcached.internal.protocol.BinaryProtocolFilter;
import dev.grizzlyboot.memcached.internal.protocol.TextProtocolFilter;
import org.glassfish.grizzly.CompletionHandler;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.IOStrategy;
import org.glassfish.grizzly.SocketConnectorHandler;
import org.glassfish.grizzly.asyncqueue.AsyncQueueWriter;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChain;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.TransportFilter;
import org.glassfish.grizzly.memory.MemoryManager;
import org.glassfish.grizzly.nio.transport.TCPNIOConnectorHandler;
import org.glassfish.grizzly.nio.transport.TCPNIOTransport;
import org.glassfish.grizzly.nio.transport.TCPNIOTransportBuilder;
import org.glassfish.grizzly.ssl.SSLFilter;
import org.glassfish.grizzly.strategies.LeaderFollowerNIOStrategy;
import org.glassfish.grizzly.strategies.SameThreadIOStrategy;
import org.glassfish.grizzly.strategies.WorkerThreadIOStrategy;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;

/**
 * The Grizzly TCP transport one client shares across all its servers: selector threads, the
 * I/O strategy and the filter chains (transport, TLS when configured, read-batch end hook, the
 * binary codec or, for bulk-read connections, the text one, response dispatch), and the security
 * every new connection is set up with. Thread-safe.
 * Internal.
 */
public final class ClientTransport implements AutoCloseable {

    private final TCPNIOTransport transport;
    private final ConnectionSecurity security;
    private final SSLFilter tls;
    private final SocketConnectorHandler textConnector;

    public ClientTransport(IoStrategy ioStrategy, int ioThreads, int workerThreads, int maxResponseBodyLength,
            ConnectionSecurity security) {
        this.security = security;
        if (security.tls() != null) {
            TlsEngines engines = new TlsEngines(security.tls(), null, -1);
            // Server engines are never made: this transport only connects.
            tls = new SSLFilter(engines, engines);
        } else {
            tls = null;
        }
        TCPNIOTransportBuilder builder = TCPNIOTransportBuilder.newInstance()
                .setName("grizzly-memcached")
                .setIOStrategy(grizzlyStrategy(ioStrategy))
                .setSelectorRunnersCount(ioThreads)
                .setSelectorThreadPoolConfig(threads("grizzly-memcached-io", ioThreads))
                .setTcpNoDelay(true)
                .setKeepAlive(true);
        if (ioStrategy != IoStrategy.SAME_THREAD) {
            builder.setWorkerThreadPoolConfig(threads("grizzly-memcached-worker", workerThreads));
        }
        transport = builder.build();
        transport.setProcessor(chain(new BinaryProtocolFilter(maxResponseBodyLength)));
        textConnector = TCPNIOConnectorHandler.builder(transport).processor(chain(new TextProtocolFilter(maxResponseBodyLength)))
                .build();
        // Operations are bounded by their timeouts, not by Grizzly's write-queue limit, which would
        // otherwise close a connection to a slow server instead of letting its operations time out.
        transport.getAsyncQueueIO().getWriter().setMaxPendingBytesPerConnection(AsyncQueueWriter.UNLIMITED_SIZE);
        try {
            transport.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the Grizzly transport", e);
        }
    }

    /** Connects a connection that speaks the binary protocol, or the text protocol's {@code get}. */
    void connect(SocketAddress address, boolean text, CompletionHandler<Connection> handler) {
        if (text) {
            textConnector.connect(address, handler);
        } else {
            transport.connect(address, handler);
        }
    }

    /** The filter chain of a connection whose answers {@code codec} decodes. */
    private FilterChain chain(BaseFilter codec) {
        FilterChainBuilder chain = FilterChainBuilder.stateless().add(new TransportFilter());
        if (tls != null) {
            chain.add(tls);
        }
        return chain.add(new ReadBatchEndFilter()).add(codec).add(new ResponseDispatchFilter()).build();
    }

    /**
     * Starts the TLS handshake on a new connection, with an engine for {@code host:port} as
     * configured (which host-name verification checks), or completes at once without TLS.
     */
    void handshake(Connection<?> connection, String host, int port, CompletionHandler<SSLEngine> handler) {
        if (tls == null) {
            handler.completed(null);
            return;
        }
        try {
            tls.handshake(connection, handler, null, new TlsEngines(security.tls(), host, port));
        } catch (IOException | RuntimeException e) {
            handler.failed(e);
        }
    }

    ConnectionSecurity security() {
        return security;
    }

    MemoryManager<?> memoryManager() {
        return transport.getMemoryManager();
    }

    @Override
    public void close() {
        try {
            transport.shutdownNow();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop the Grizzly transport", e);
        }
    }

    private static ThreadPoolConfig threads(String name, int count) {
        return ThreadPoolConfig.defaultConfig().copy()
                .setPoolName(name)
                .setCorePoolSize(count)
                .setMaxPoolSize(count)
                .setDaemon(true);
    }

    private static IOStrategy grizzlyStrategy(IoStrategy strategy) {
        return switch (strategy) {
            case SAME_THREAD -> SameThreadIOStrategy.getInstance();
            case WORKER_THREAD -> WorkerThreadIOStrategy.getInstance();
            case LEADER_FOLLOWER -> LeaderFollowerNIOStrategy.getInstance();
        };
    }
}
