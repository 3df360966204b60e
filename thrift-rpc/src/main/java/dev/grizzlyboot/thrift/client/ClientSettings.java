package dev.grizzlyboot.thrift.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.SSLContext;

import dev.grizzlyboot.thrift.ThriftProtocol;
import dev.grizzlyboot.thrift.observation.CallObserver;

/** The validated, immutable options a {@link ThriftClientBuilder} produced. */
final class ClientSettings {
    final List<InetSocketAddress> servers;
    final ThriftProtocol protocol;
    final Duration connectTimeout;
    final Duration readTimeout;
    final int minConnections;
    final int maxConnections;
    final Duration idleTimeout;
    final int retries;
    final int failAfterTimeouts;
    final Duration healthCheckInterval;
    final int maxFrameSize;
    final int selectorThreads;
    final SSLContext sslContext;
    final boolean verifyHostname;
    final String name;
    final CallObserver callObserver;

    ClientSettings(ThriftClientBuilder b) {
        if (b.servers.isEmpty()) {
            throw new IllegalArgumentException("a ThriftClient needs at least one server");
        }
        if (b.minConnections > b.maxConnections) {
            throw new IllegalArgumentException("minConnections " + b.minConnections
                    + " exceeds maxConnections " + b.maxConnections);
        }
        this.servers = List.copyOf(b.servers);
        this.protocol = b.protocol;
        this.connectTimeout = b.connectTimeout;
        this.readTimeout = b.readTimeout;
        this.minConnections = b.minConnections;
        this.maxConnections = b.maxConnections;
        this.idleTimeout = b.idleTimeout;
        this.retries = b.retries;
        this.failAfterTimeouts = b.failAfterTimeouts;
        this.healthCheckInterval = b.healthCheckInterval;
        this.maxFrameSize = b.maxFrameSize;
        this.selectorThreads = b.selectorThreads;
        this.sslContext = b.sslContext;
        this.verifyHostname = b.verifyHostname;
        this.name = b.name;
        this.callObserver = b.callObserver;
    }
}
