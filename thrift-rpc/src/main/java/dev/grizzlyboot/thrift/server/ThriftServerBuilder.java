package dev.grizzlyboot.thrift.server;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;

import javax.net.ssl.SSLContext;

import dev.grizzlyboot.thrift.ThriftProtocol;
import dev.grizzlyboot.thrift.observation.CallObserver;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TProcessor;

/**
 * Options for a {@link ThriftServer}; {@link #build()} checks them and creates the server without
 * binding. Defaults: host 0.0.0.0, port 9090, connection-reader strategy, binary protocol, 32 worker
 * threads, one selector thread per core, 16,384,000-byte frames (libthrift's default), 5-minute
 * idle timeout, 30-second stop deadline, no TLS. A builder is not thread-safe; use it from one
 * thread.
 */
public final class ThriftServerBuilder {
    final TProcessor processor;
    String host = "0.0.0.0";
    int port = 9090;
    int backlog = 1024;
    IoStrategy ioStrategy = IoStrategy.CONNECTION_READER;
    ThriftProtocol protocol = ThriftProtocol.BINARY;
    int workerThreads = 32;
    ExecutorService workerExecutor;
    CallObserver callObserver;
    int selectorThreads = Runtime.getRuntime().availableProcessors();
    int maxFrameSize = TConfiguration.DEFAULT_MAX_FRAME_SIZE;
    Duration idleTimeout = Duration.ofMinutes(5);
    Duration stopDeadline = Duration.ofSeconds(30);
    SSLContext sslContext;
    boolean needClientAuth;

    ThriftServerBuilder(TProcessor processor) {
        this.processor = Objects.requireNonNull(processor, "processor");
    }

    /**
     * Sets the address to listen on.
     *
     * @param host a host name or IP literal; {@code 0.0.0.0} listens on every interface
     * @return this builder
     */
    public ThriftServerBuilder host(String host) {
        this.host = Objects.requireNonNull(host, "host");
        return this;
    }

    /**
     * Sets the port; 0 picks any free port, readable with {@link ThriftServer#port()} after start.
     *
     * @param port 0 to 65535
     * @return this builder
     */
    public ThriftServerBuilder port(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, was " + port);
        }
        this.port = port;
        return this;
    }

    /**
     * Sets which thread runs handlers.
     *
     * @param ioStrategy the strategy; only {@link IoStrategy#SAME_THREAD} runs handlers on selector threads
     * @return this builder
     */
    public ThriftServerBuilder ioStrategy(IoStrategy ioStrategy) {
        this.ioStrategy = Objects.requireNonNull(ioStrategy, "ioStrategy");
        return this;
    }

    /**
     * Sets the wire protocol; clients must use the same one.
     *
     * @param protocol binary or compact
     * @return this builder
     */
    public ThriftServerBuilder protocol(ThriftProtocol protocol) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
        return this;
    }

    /**
     * Sets the worker pool size: the most handler calls that run at once (ignored for same-thread).
     *
     * @param workerThreads at least 1
     * @return this builder
     */
    public ThriftServerBuilder workerThreads(int workerThreads) {
        this.workerThreads = positive(workerThreads, "workerThreads");
        return this;
    }

    /**
     * Runs handlers on this executor instead of the server's own pool of {@code workerThreads}
     * threads, for example one that starts a virtual thread per task. The server never shuts it
     * down. Ignored for {@link IoStrategy#SAME_THREAD}.
     *
     * @param workerExecutor the executor for handler calls
     * @return this builder
     */
    public ThriftServerBuilder workerExecutor(ExecutorService workerExecutor) {
        this.workerExecutor = Objects.requireNonNull(workerExecutor, "workerExecutor");
        return this;
    }

    /**
     * Tells {@code observer} about every call the server handles, with the service (the
     * multiplexed name, or the generated service's simple name for a plain processor) and the
     * method; for Micrometer use {@link dev.grizzlyboot.thrift.observation.MicrometerCallObserver#server}.
     *
     * @param observer the observer
     * @return this builder
     */
    public ThriftServerBuilder callObserver(CallObserver observer) {
        this.callObserver = Objects.requireNonNull(observer, "observer");
        return this;
    }

    /**
     * Sets the number of selector threads that do the socket I/O.
     *
     * @param selectorThreads at least 1
     * @return this builder
     */
    public ThriftServerBuilder selectorThreads(int selectorThreads) {
        this.selectorThreads = positive(selectorThreads, "selectorThreads");
        return this;
    }

    /**
     * Sets the largest accepted request frame (and message); a longer frame closes the connection
     * as soon as its length is read. Replies are sent whatever their size, as libthrift's servers
     * do: the client's own limit decides whether it takes them.
     *
     * @param maxFrameSize bytes, at least 1
     * @return this builder
     */
    public ThriftServerBuilder maxFrameSize(int maxFrameSize) {
        this.maxFrameSize = positive(maxFrameSize, "maxFrameSize");
        return this;
    }

    /**
     * Sets how long a connection may go without reading or writing (while no call runs) before it
     * is closed; this also ends connections that send half a frame and go silent.
     *
     * @param idleTimeout a positive duration, or zero to never close idle connections
     * @return this builder
     */
    public ThriftServerBuilder idleTimeout(Duration idleTimeout) {
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("idleTimeout must not be negative");
        }
        this.idleTimeout = idleTimeout;
        return this;
    }

    /**
     * Sets the deadline {@link ThriftServer#close()} gives running calls.
     *
     * @param stopDeadline a duration that is not negative
     * @return this builder
     */
    public ThriftServerBuilder stopDeadline(Duration stopDeadline) {
        if (stopDeadline.isNegative()) {
            throw new IllegalArgumentException("stopDeadline must not be negative");
        }
        this.stopDeadline = stopDeadline;
        return this;
    }

    /**
     * Serves TLS with Grizzly's SSL filter.
     *
     * @param sslContext     a context initialised with the server's key material
     * @param needClientAuth whether clients must present a certificate the context trusts
     * @return this builder
     */
    public ThriftServerBuilder tls(SSLContext sslContext, boolean needClientAuth) {
        this.sslContext = Objects.requireNonNull(sslContext, "sslContext");
        this.needClientAuth = needClientAuth;
        return this;
    }

    /**
     * Checks the options and creates the server, not yet listening.
     *
     * @return a server to {@link ThriftServer#start()}
     * @throws IllegalArgumentException if the processor is asynchronous
     */
    public ThriftServer build() {
        return new ThriftServer(new ThriftServer.ServerSettings(this));
    }

    private static int positive(int value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }
}
