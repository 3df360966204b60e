package dev.grizzlyboot.autoconfigure.thrift.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.autoconfigure.internal.PropertyBounds;
import dev.grizzlyboot.thrift.ThriftProtocol;
import org.springframework.util.unit.DataSize;

/**
 * Settings of one client under {@code grizzly.thrift.clients.<name>}; unset values keep
 * {@code ThriftClientBuilder}'s defaults. Bound by Spring's binder when the client is created; a
 * mutable bean not meant to change afterwards.
 */
public class ThriftClientProperties {

    /** Servers as host:port, a comma-separated list or a YAML list. */
    private List<String> servers = new ArrayList<>();

    /**
     * The generated service class, e.g. tutorial.Calculator (its nested Iface is the bean's type),
     * or the Iface itself.
     */
    private String service;

    /** Wire protocol; must match the servers'. */
    private ThriftProtocol protocol = ThriftProtocol.BINARY;

    /** Name of the service in a multiplexed server (its @ThriftService name); unset for a plain processor. */
    private String multiplexedName;

    /** Longest wait to connect (with the TLS handshake) or for a free pooled connection. */
    private Duration connectTimeout = Duration.ofSeconds(2);

    /** Longest wait for a reply once a request is sent. */
    private Duration readTimeout = Duration.ofSeconds(10);

    /** Read timeouts of single methods, by method name, in place of read-timeout. */
    private Map<String, Duration> methodTimeouts = new LinkedHashMap<>();

    /** Methods safe to run twice, so a call whose request was sent is retried on another server after a failure. */
    private List<String> idempotentMethods = new ArrayList<>();

    /** Most connections per server, which is also the most concurrent calls per server. */
    private int maxConnections = 16;

    /** How long a pooled connection may stay unused before it is closed; keep it below the servers' idle timeout. 0 keeps idle connections. */
    private Duration idleTimeout = Duration.ofMinutes(1);

    /** How many more servers a call tries after a transport failure. */
    private int retries = 2;

    /**
     * Largest request or reply frame: a larger request fails at once, unsent; a larger reply fails
     * its call and closes the connection.
     */
    private DataSize maxFrameSize = DataSize.ofBytes(16_384_000);

    private final Ssl ssl = new Ssl();

    public List<String> getServers() {
        return servers;
    }

    public void setServers(List<String> servers) {
        this.servers = servers;
    }

    public String getService() {
        return service;
    }

    public void setService(String service) {
        this.service = service;
    }

    public ThriftProtocol getProtocol() {
        return protocol;
    }

    public void setProtocol(ThriftProtocol protocol) {
        this.protocol = protocol;
    }

    public String getMultiplexedName() {
        return multiplexedName;
    }

    public void setMultiplexedName(String multiplexedName) {
        this.multiplexedName = multiplexedName;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public Duration getReadTimeout() {
        return readTimeout;
    }

    public void setReadTimeout(Duration readTimeout) {
        this.readTimeout = readTimeout;
    }

    public Map<String, Duration> getMethodTimeouts() {
        return methodTimeouts;
    }

    public void setMethodTimeouts(Map<String, Duration> methodTimeouts) {
        this.methodTimeouts = methodTimeouts;
    }

    public List<String> getIdempotentMethods() {
        return idempotentMethods;
    }

    public void setIdempotentMethods(List<String> idempotentMethods) {
        this.idempotentMethods = idempotentMethods;
    }

    public int getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }

    public int getRetries() {
        return retries;
    }

    public void setRetries(int retries) {
        this.retries = retries;
    }

    public DataSize getMaxFrameSize() {
        return maxFrameSize;
    }

    public void setMaxFrameSize(DataSize maxFrameSize) {
        PropertyBounds.fitsIntBytes(maxFrameSize);
        this.maxFrameSize = maxFrameSize;
    }

    public Ssl getSsl() {
        return ssl;
    }

    /** TLS from a Spring Boot SSL bundle (spring.ssl.bundle.*). */
    public static class Ssl {

        /** Name of the SSL bundle whose trust material accepts the servers (and whose key, if any, is the client's certificate); unset for plain TCP. */
        private String bundle;

        /** Whether the server's certificate must name the host or IP the client dialled. */
        private boolean verifyHostname = true;

        public String getBundle() {
            return bundle;
        }

        public void setBundle(String bundle) {
            this.bundle = bundle;
        }

        public boolean isVerifyHostname() {
            return verifyHostname;
        }

        public void setVerifyHostname(boolean verifyHostname) {
            this.verifyHostname = verifyHostname;
        }
    }
}
