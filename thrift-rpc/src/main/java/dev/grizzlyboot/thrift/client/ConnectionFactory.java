package dev.grizzlyboot.thrift.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import dev.grizzlyboot.thrift.transport.ClientFrameTransport;
import dev.grizzlyboot.thrift.transport.ThriftClientFilter;
import dev.grizzlyboot.thrift.transport.ThriftFrameFilter;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TTransportException;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.TransportFilter;
import org.glassfish.grizzly.impl.FutureImpl;
import org.glassfish.grizzly.nio.transport.TCPNIOTransport;
import org.glassfish.grizzly.nio.transport.TCPNIOTransportBuilder;
import org.glassfish.grizzly.ssl.SSLEngineConfigurator;
import org.glassfish.grizzly.ssl.SSLFilter;
import org.glassfish.grizzly.strategies.SameThreadIOStrategy;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;
import org.glassfish.grizzly.utils.Futures;
import org.slf4j.LoggerFactory;

/**
 * Opens client connections on one Grizzly transport shared by every server of a client. Its
 * selector threads connect, run TLS handshakes and finish queued writes, all short work, so they
 * do it themselves (same-thread strategy) without a hop to a worker; once a connection is open its
 * replies are read by the calling threads, or by a selector thread for a virtual calling thread
 * ({@link ClientFrameTransport}). Thread-safe.
 */
final class ConnectionFactory implements AutoCloseable {
    private final ClientSettings settings;
    private final TConfiguration configuration;
    private final TProtocolFactory protocols;
    private final SSLFilter sslFilter;
    private final TCPNIOTransport transport;

    ConnectionFactory(ClientSettings settings) {
        this.settings = settings;
        this.configuration = new TConfiguration(
                settings.maxFrameSize, settings.maxFrameSize, TConfiguration.DEFAULT_RECURSION_DEPTH);
        this.protocols = settings.protocol.factory();
        FilterChainBuilder chain = FilterChainBuilder.stateless().add(new TransportFilter());
        if (settings.sslContext != null) {
            // Each handshake gets the engines of its own server (open), so these are never used.
            sslFilter = new SSLFilter(new SSLEngineConfigurator(settings.sslContext, false, false, false),
                    new SSLEngineConfigurator(settings.sslContext, true, false, false));
            chain.add(sslFilter);
        } else {
            sslFilter = null;
        }
        chain.add(new ThriftFrameFilter(settings.maxFrameSize)).add(new ThriftClientFilter());
        transport = TCPNIOTransportBuilder.newInstance()
                .setName("grizzlyboot-thrift-client")
                .setIOStrategy(SameThreadIOStrategy.getInstance())
                .setWorkerThreadPoolConfig(null)
                .setSelectorRunnersCount(settings.selectorThreads)
                .setSelectorThreadPoolConfig(ThreadPoolConfig.defaultConfig()
                        .setPoolName("grizzlyboot-thrift-client-selector")
                        .setDaemon(true)
                        .setCorePoolSize(settings.selectorThreads)
                        .setMaxPoolSize(settings.selectorThreads))
                .setTcpNoDelay(true)
                .setProcessor(chain.build())
                .build();
        try {
            transport.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the Thrift client transport", e);
        }
    }

    /**
     * Resolves the server's host name afresh, then connects (and for TLS, completes the handshake)
     * within the connect timeout.
     */
    PooledConnection open(InetSocketAddress server) throws IOException, TTransportException {
        long timeoutNanos = settings.connectTimeout.toNanos();
        long deadline = System.nanoTime() + timeoutNanos;
        InetSocketAddress address = new InetSocketAddress(server.getHostString(), server.getPort());
        if (address.isUnresolved()) {
            throw new IOException("cannot resolve the host name of " + server.getHostString() + ":" + server.getPort());
        }
        Future<Connection> connecting = transport.connect(address);
        Connection<?> connection = await(connecting, timeoutNanos, address);
        try {
            if (sslFilter != null) {
                FutureImpl<SSLEngine> handshake = Futures.createSafeFuture();
                sslFilter.handshake(connection, Futures.toCompletionHandler(handshake), null,
                        new ServerEngines(settings.sslContext, server.getHostString(), server.getPort(), settings.verifyHostname));
                await(handshake, deadline - System.nanoTime(), address);
            }
            return new PooledConnection(new ClientFrameTransport(connection, configuration, protocols, settings.readTimeout));
        } catch (IOException | TTransportException | RuntimeException e) {
            connection.closeSilently();
            throw e;
        }
    }

    private static <T> T await(Future<T> future, long timeoutNanos, InetSocketAddress address) throws IOException {
        try {
            return future.get(Math.max(0, timeoutNanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new IOException("connect to " + address + " timed out", e);
        } catch (ExecutionException e) {
            throw new IOException("connect to " + address + " failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new IOException("interrupted while connecting to " + address, e);
        }
    }

    @Override
    public void close() {
        try {
            transport.shutdownNow();
        } catch (IOException e) {
            LoggerFactory.getLogger(ConnectionFactory.class).warn("error while shutting down the Thrift client transport", e);
        }
    }

    /**
     * The client engine of a connection to one server, made for the host and port as configured:
     * host-name verification checks the certificate against that host. (Verification set on the
     * filter's shared client configurator let a trusted certificate of another host through.)
     */
    private static final class ServerEngines extends SSLEngineConfigurator {
        private final SSLContext context;
        private final String host;
        private final int port;
        private final boolean verifyHostname;

        ServerEngines(SSLContext context, String host, int port, boolean verifyHostname) {
            super(context, true, false, false);
            this.context = context;
            this.host = host;
            this.port = port;
            this.verifyHostname = verifyHostname;
        }

        @Override
        public SSLEngine createSSLEngine() {
            return createSSLEngine(host, port);
        }

        @Override
        public SSLEngine createSSLEngine(String peerHost, int peerPort) {
            return configure(context.createSSLEngine(host, port));
        }

        @Override
        public SSLEngine configure(SSLEngine engine) {
            super.configure(engine);
            if (verifyHostname) {
                SSLParameters parameters = engine.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                engine.setSSLParameters(parameters);
            }
            return engine;
        }

        @Override
        public SSLEngineConfigurator copy() {
            return new ServerEngines(context, host, port, verifyHostname);
        }
    }
}
