package dev.grizzlyboot.thrift.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import javax.net.ssl.SSLContext;

import dev.grizzlyboot.thrift.ThriftProtocol;
import dev.grizzlyboot.thrift.observation.CallObserver;
import org.apache.thrift.TConfiguration;

/**
 * Options for a {@link ThriftClient}. Defaults: binary protocol, 2 s connect timeout, 10 s read
 * timeout, 0 to 16 connections per server closed after 1 minute idle, 2 retries, out of
 * rotation after 2 read timeouts in a row, a 1 s health check, 16,384,000-byte frames, one
 * selector thread, no TLS (hostname verification on once TLS is set). Not thread-safe.
 */
public final class ThriftClientBuilder {
    final List<InetSocketAddress> servers = new ArrayList<>();
    ThriftProtocol protocol = ThriftProtocol.BINARY;
    Duration connectTimeout = Duration.ofSeconds(2);
    Duration readTimeout = Duration.ofSeconds(10);
    int minConnections;
    int maxConnections = 16;
    Duration idleTimeout = Duration.ofMinutes(1);
    int retries = 2;
    int failAfterTimeouts = 2;
    Duration healthCheckInterval = Duration.ofSeconds(1);
    int maxFrameSize = TConfiguration.DEFAULT_MAX_FRAME_SIZE;
    int selectorThreads = 1;
    SSLContext sslContext;
    boolean verifyHostname = true;
    String name = "thrift-client";
    CallObserver callObserver;

    ThriftClientBuilder() {
    }

    /**
     * Adds a server.
     *
     * @param host host name or IP literal
     * @param port TCP port
     * @return this builder
     */
    public ThriftClientBuilder server(String host, int port) {
        // Resolved at each connect, not here: a name that resolves later, or to a new address, is followed.
        servers.add(InetSocketAddress.createUnresolved(Objects.requireNonNull(host, "host"), port));
        return this;
    }

    /**
     * Adds servers from a comma-separated {@code host:port} list, as in {@code a:7911,b:7911};
     * an IPv6 literal is written in brackets ({@code [::1]:7911}), and blank entries are skipped.
     *
     * @param hostPorts the list
     * @return this builder
     * @throws IllegalArgumentException if an entry is not {@code host:port}
     */
    public ThriftClientBuilder servers(String hostPorts) {
        for (String entry : hostPorts.split(",")) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            int colon = trimmed.lastIndexOf(':');
            String host = colon > 0 ? trimmed.substring(0, colon) : "";
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            } else if (host.indexOf(':') >= 0 || host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
                host = "";
            }
            int port = portOrMinusOne(trimmed.substring(colon + 1));
            if (host.isBlank() || port < 1 || port > 65_535) {
                throw new IllegalArgumentException("expected host:port (an IPv6 address in brackets, [::1]:7911), got '"
                        + trimmed + "'");
            }
            server(host, port);
        }
        return this;
    }

    private static int portOrMinusOne(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Sets the wire protocol; it must match the servers'.
     *
     * @param protocol binary or compact
     * @return this builder
     */
    public ThriftClientBuilder protocol(ThriftProtocol protocol) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
        return this;
    }

    /**
     * Sets how long opening a connection (including a TLS handshake), waiting for a free pooled
     * connection, or waiting for a failed server to answer the health monitor's probe may take.
     *
     * @param connectTimeout a positive duration
     * @return this builder
     */
    public ThriftClientBuilder connectTimeout(Duration connectTimeout) {
        this.connectTimeout = positive(connectTimeout, "connectTimeout");
        return this;
    }

    /**
     * Sets how long a call waits for its reply once the request is sent; a proxy can set another
     * wait for some methods with {@link ThriftProxyBuilder#readTimeout(String, Duration)}.
     *
     * @param readTimeout a positive duration
     * @return this builder
     */
    public ThriftClientBuilder readTimeout(Duration readTimeout) {
        this.readTimeout = positive(readTimeout, "readTimeout");
        return this;
    }

    /**
     * Sets how many connections per server the health monitor keeps open even when idle.
     *
     * @param minConnections 0 or more, at most the maximum
     * @return this builder
     */
    public ThriftClientBuilder minConnections(int minConnections) {
        if (minConnections < 0) {
            throw new IllegalArgumentException("minConnections must not be negative");
        }
        this.minConnections = minConnections;
        return this;
    }

    /**
     * Sets the most connections per server, which is also the most concurrent calls per server.
     *
     * @param maxConnections at least 1
     * @return this builder
     */
    public ThriftClientBuilder maxConnections(int maxConnections) {
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections must be positive");
        }
        this.maxConnections = maxConnections;
        return this;
    }

    /**
     * Sets how long a pooled connection may stay unused before the client closes it. Keep it below
     * the servers' idle timeout (5 minutes for a {@code ThriftServer} by default), so that a server
     * never closes a connection just as a call is sent on it.
     *
     * @param idleTimeout a positive duration, or zero to keep idle connections open
     * @return this builder
     */
    public ThriftClientBuilder idleTimeout(Duration idleTimeout) {
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("idleTimeout must not be negative");
        }
        this.idleTimeout = idleTimeout;
        return this;
    }

    /**
     * Sets how many more servers a call tries after a transport failure.
     *
     * @param retries 0 or more
     * @return this builder
     */
    public ThriftClientBuilder retries(int retries) {
        if (retries < 0) {
            throw new IllegalArgumentException("retries must not be negative");
        }
        this.retries = retries;
        return this;
    }

    /**
     * Sets how many read timeouts in a row (with no reply from that server in between) take a
     * server out of rotation, as a hung process would cause. The health monitor puts it back once
     * it answers again.
     *
     * @param failAfterTimeouts at least 1
     * @return this builder
     */
    public ThriftClientBuilder failAfterTimeouts(int failAfterTimeouts) {
        if (failAfterTimeouts <= 0) {
            throw new IllegalArgumentException("failAfterTimeouts must be positive");
        }
        this.failAfterTimeouts = failAfterTimeouts;
        return this;
    }

    /**
     * Sets how often the monitor tries failed servers and tops up minimum connections.
     *
     * @param healthCheckInterval a positive duration
     * @return this builder
     */
    public ThriftClientBuilder healthCheckInterval(Duration healthCheckInterval) {
        this.healthCheckInterval = positive(healthCheckInterval, "healthCheckInterval");
        return this;
    }

    /**
     * Sets the largest request or reply frame. A larger request is refused unsent, without a retry
     * and with the connection kept; a larger reply fails its call and closes the connection as soon
     * as its length is read.
     *
     * @param maxFrameSize bytes, at least 1
     * @return this builder
     */
    public ThriftClientBuilder maxFrameSize(int maxFrameSize) {
        if (maxFrameSize <= 0) {
            throw new IllegalArgumentException("maxFrameSize must be positive");
        }
        this.maxFrameSize = maxFrameSize;
        return this;
    }

    /**
     * Sets the number of selector threads, which connect, run TLS handshakes, finish writes a full
     * socket could not take at once and read the replies of calls made from virtual threads.
     * Platform threads read their own replies.
     *
     * @param selectorThreads at least 1
     * @return this builder
     */
    public ThriftClientBuilder selectorThreads(int selectorThreads) {
        if (selectorThreads <= 0) {
            throw new IllegalArgumentException("selectorThreads must be positive");
        }
        this.selectorThreads = selectorThreads;
        return this;
    }

    /**
     * Talks TLS through Grizzly's SSL filter.
     *
     * @param sslContext     a context whose trust material accepts the servers' certificates
     * @param verifyHostname whether the certificate must name the host or IP the client dialled
     * @return this builder
     */
    public ThriftClientBuilder tls(SSLContext sslContext, boolean verifyHostname) {
        this.sslContext = Objects.requireNonNull(sslContext, "sslContext");
        this.verifyHostname = verifyHostname;
        return this;
    }

    /**
     * Names the client in observations (the {@code client} tag) and messages.
     *
     * @param name a short name such as the service's
     * @return this builder
     */
    public ThriftClientBuilder name(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return this;
    }

    /**
     * Tells {@code observer} about every call of every proxy of this client, retries included, with
     * the client's name and the method; for Micrometer use
     * {@link dev.grizzlyboot.thrift.observation.MicrometerCallObserver#client}.
     *
     * @param observer the observer
     * @return this builder
     */
    public ThriftClientBuilder callObserver(CallObserver observer) {
        this.callObserver = Objects.requireNonNull(observer, "observer");
        return this;
    }

    /**
     * Creates the client; connections open on first use (or by the monitor for the minimum).
     *
     * @return a started client
     */
    public ThriftClient build() {
        return new ThriftClient(new ClientSettings(this));
    }

    static Duration positive(Duration value, String name) {
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
        return value;
    }
}
