package dev.grizzlyboot.autoconfigure.thrift.server;

import java.time.Duration;

import dev.grizzlyboot.autoconfigure.internal.PropertyBounds;
import dev.grizzlyboot.thrift.ThriftProtocol;
import dev.grizzlyboot.thrift.server.IoStrategy;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the auto-configured Thrift server, bound from {@code grizzly.thrift.server.*}.
 * Unset values keep {@code ThriftServerBuilder}'s defaults. A mutable bean filled in by Spring's
 * binder at start-up; not meant to change afterwards.
 */
@ConfigurationProperties("grizzly.thrift.server")
public class ThriftServerProperties {

    /** Whether to run a Thrift server for the application's @ThriftService handler beans. */
    private boolean enabled = true;

    /** Address to listen on; 0.0.0.0 listens on every interface. */
    private String host = "0.0.0.0";

    /**
     * Port to listen on; 0 picks a free port, published as the local.grizzly.thrift.port property
     * once the server listens.
     */
    private int port = 9090;

    /**
     * Which thread runs handlers: connection-reader (a worker runs each connection's queued calls in
     * order and, while there are no more connections than workers, keeps reading a busy connection
     * itself; plain TCP), connection-queue (the same without keeping connections), worker-thread,
     * leader-follower, or same-thread (the selector; never for blocking handlers).
     */
    private IoStrategy ioStrategy = IoStrategy.CONNECTION_READER;

    /** Wire protocol inside each frame; clients must use the same. */
    private ThriftProtocol protocol = ThriftProtocol.BINARY;

    /**
     * Most handler calls running at once (the worker pool's size). Ignored with virtual threads
     * (spring.threads.virtual.enabled) and for the same-thread strategy.
     */
    private int workerThreads = 32;

    /** Selector threads doing the socket I/O. Default: the number of cores. */
    private Integer selectorThreads;

    /** Largest accepted request; a longer frame closes the connection as soon as its length is read. */
    private DataSize maxFrameSize = DataSize.ofBytes(16_384_000);

    /** How long a connection may stay silent while no call runs before the server closes it; 0 keeps it open. */
    private Duration idleTimeout = Duration.ofMinutes(5);

    /**
     * How the server stops with the application: graceful lets running calls reply, for at most
     * spring.lifecycle.timeout-per-shutdown-phase; immediate closes every connection at once. Unset
     * follows server.shutdown, as Boot's web servers do, and is graceful when that is unset too.
     */
    private Shutdown shutdown;

    private final Ssl ssl = new Ssl();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public int getPort() {
        return port;
    }

    public void setPort(int port) {
        this.port = port;
    }

    public IoStrategy getIoStrategy() {
        return ioStrategy;
    }

    public void setIoStrategy(IoStrategy ioStrategy) {
        this.ioStrategy = ioStrategy;
    }

    public ThriftProtocol getProtocol() {
        return protocol;
    }

    public void setProtocol(ThriftProtocol protocol) {
        this.protocol = protocol;
    }

    public int getWorkerThreads() {
        return workerThreads;
    }

    public void setWorkerThreads(int workerThreads) {
        this.workerThreads = workerThreads;
    }

    public Integer getSelectorThreads() {
        return selectorThreads;
    }

    public void setSelectorThreads(Integer selectorThreads) {
        this.selectorThreads = selectorThreads;
    }

    public DataSize getMaxFrameSize() {
        return maxFrameSize;
    }

    public void setMaxFrameSize(DataSize maxFrameSize) {
        PropertyBounds.fitsIntBytes(maxFrameSize);
        this.maxFrameSize = maxFrameSize;
    }

    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }

    public Shutdown getShutdown() {
        return shutdown;
    }

    public void setShutdown(Shutdown shutdown) {
        this.shutdown = shutdown;
    }

    public Ssl getSsl() {
        return ssl;
    }

    /** TLS from a Spring Boot SSL bundle (spring.ssl.bundle.*). */
    public static class Ssl {

        /** Name of the SSL bundle with the server's key (and, for client-auth, the trusted clients); unset serves plain TCP. */
        private String bundle;

        /** Whether clients must present a certificate the bundle's trust material accepts. */
        private ClientAuth clientAuth = ClientAuth.NONE;

        public String getBundle() {
            return bundle;
        }

        public void setBundle(String bundle) {
            this.bundle = bundle;
        }

        public ClientAuth getClientAuth() {
            return clientAuth;
        }

        public void setClientAuth(ClientAuth clientAuth) {
            this.clientAuth = clientAuth;
        }
    }

    /** Whether the server asks TLS clients for a certificate. */
    public enum ClientAuth {
        /** Clients need no certificate. */
        NONE,
        /** Clients must present a certificate the bundle trusts, or the handshake fails. */
        NEED
    }

    /** How the server stops when the application context closes; the values of Boot's server.shutdown. */
    public enum Shutdown {
        /** Stop accepting, let running calls reply, then close; cut off at the shutdown-phase timeout. */
        GRACEFUL,
        /** Close every connection at once, cutting off running calls. */
        IMMEDIATE
    }
}
