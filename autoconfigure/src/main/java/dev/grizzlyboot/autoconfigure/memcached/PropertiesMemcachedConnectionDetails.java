package dev.grizzlyboot.autoconfigure.memcached;

import java.util.List;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * {@link MemcachedConnectionDetails} read from {@code grizzly.memcached.servers}, parsed once when
 * the bean is created, so a malformed address fails the start-up (explained by
 * {@link InvalidServerListFailureAnalyzer}) rather than the first call; the login from
 * {@code username}/{@code password}, and TLS from {@code ssl.*} (the bundle looked up when asked,
 * so a reloaded bundle is seen).
 */
final class PropertiesMemcachedConnectionDetails implements MemcachedConnectionDetails {

    private final List<ServerAddress> servers;
    private final GrizzlyMemcachedProperties properties;
    private final SslBundles sslBundles;

    /**
     * @param sslBundles the application's bundles, or {@code null} when there are none
     */
    PropertiesMemcachedConnectionDetails(GrizzlyMemcachedProperties properties, SslBundles sslBundles) {
        this.servers = parse(properties.getServers());
        this.properties = properties;
        this.sslBundles = sslBundles;
    }

    @Override
    public String getUsername() {
        return properties.getUsername();
    }

    @Override
    public String getPassword() {
        return properties.getPassword();
    }

    @Override
    public SslBundle getSslBundle() {
        GrizzlyMemcachedProperties.Ssl ssl = properties.getSsl();
        if (!ssl.isEnabled()) {
            return null;
        }
        if (ssl.getBundle() == null) {
            return SslBundle.systemDefault();
        }
        if (sslBundles == null) {
            throw new IllegalStateException("grizzly.memcached.ssl.bundle is set but there are no SSL bundles in the context");
        }
        return sslBundles.getBundle(ssl.getBundle());
    }

    private static List<ServerAddress> parse(List<String> configured) {
        List<ServerAddress> servers;
        try {
            servers = List.copyOf(ServerAddress.parseAll(configured));
        } catch (IllegalArgumentException e) {
            throw new InvalidServerListException(configured, e.getMessage(), e);
        }
        if (servers.isEmpty()) {
            throw new InvalidServerListException(configured, "it names no server", null);
        }
        if (servers.stream().distinct().count() != servers.size()) {
            throw new InvalidServerListException(configured, "a server is listed twice", null);
        }
        return servers;
    }

    @Override
    public List<ServerAddress> getServers() {
        return servers;
    }
}
