package dev.grizzlyboot.autoconfigure.thrift.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.grizzlyboot.autoconfigure.internal.BundleSslContexts;
import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftClientBuilder;
import dev.grizzlyboot.thrift.client.ThriftProxyBuilder;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.env.Environment;

/**
 * The pooled {@link ThriftClient}s behind the client beans of {@code grizzly.thrift.clients}, by
 * client name. A client is built when its bean is first created, from its properties bound at that
 * moment (so a server address may name a port published during start-up, such as
 * {@code ${local.grizzly.thrift.port}}), and every client is closed with the context.
 * Thread-safe.
 */
public final class ThriftClients implements DisposableBean {
    /** The bean's name, which the client beans call {@link #proxy} on. */
    static final String BEAN_NAME = "thriftClients";
    private static final String PREFIX = "grizzly.thrift.clients.";

    private final Environment environment;
    private final ObjectProvider<SslBundles> sslBundles;
    private final ObjectProvider<ThriftClientCustomizer> customizers;
    private final Map<String, ThriftClient> clients = new LinkedHashMap<>();

    ThriftClients(Environment environment, ObjectProvider<SslBundles> sslBundles,
                  ObjectProvider<ThriftClientCustomizer> customizers) {
        this.environment = environment;
        this.sslBundles = sslBundles;
        this.customizers = customizers;
    }

    /**
     * Returns the clients built so far, by name, in the order they were built.
     *
     * @return an unmodifiable snapshot
     */
    public synchronized Map<String, ThriftClient> clients() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(clients));
    }

    /** Builds the named client if needed and returns a proxy of {@code iface} configured by its properties. */
    synchronized <T> T proxy(String name, Class<T> iface) {
        ThriftClientProperties properties = Binder.get(environment)
                .bindOrCreate(PREFIX + name, ThriftClientProperties.class);
        ThriftClient client = clients.computeIfAbsent(name, key -> build(key, properties));
        ThriftProxyBuilder<T> proxy = client.proxyBuilder(iface)
                .idempotent(properties.getIdempotentMethods().toArray(String[]::new));
        if (properties.getMultiplexedName() != null) {
            proxy.serviceName(properties.getMultiplexedName());
        }
        properties.getMethodTimeouts().forEach(proxy::readTimeout);
        return proxy.build();
    }

    private ThriftClient build(String name, ThriftClientProperties properties) {
        if (properties.getServers().isEmpty()) {
            throw new IllegalStateException("Thrift client '" + name + "' has no servers: set " + PREFIX + name + ".servers");
        }
        ThriftClientBuilder builder = ThriftClient.builder()
                .name(name)
                .servers(String.join(",", properties.getServers()))
                .protocol(properties.getProtocol())
                .connectTimeout(properties.getConnectTimeout())
                .readTimeout(properties.getReadTimeout())
                .maxConnections(properties.getMaxConnections())
                .idleTimeout(properties.getIdleTimeout())
                .retries(properties.getRetries())
                .maxFrameSize(Math.toIntExact(properties.getMaxFrameSize().toBytes()));
        ThriftClientProperties.Ssl ssl = properties.getSsl();
        if (ssl.getBundle() != null) {
            builder.tls(BundleSslContexts.create(sslBundles.getObject().getBundle(ssl.getBundle())), ssl.isVerifyHostname());
        }
        customizers.orderedStream().forEach(customizer -> customizer.customize(name, builder));
        return builder.build();
    }

    @Override
    public synchronized void destroy() {
        clients.values().forEach(ThriftClient::close);
        clients.clear();
    }
}
