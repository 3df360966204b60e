package dev.grizzlyboot.autoconfigure.memcached;

import java.util.List;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * {@link MemcachedConnectionDetails} read from {@code grizzly.memcached.servers}, parsed once when
 * the bean is created, so a malformed address fails the start-up rather than the first call; the
 * login from {@code username}/{@code password}, and TLS from {@code ssl.*} (the bundle looked up
 * when asked, so a reloaded bundle is seen).
 */
final class PropertiesMemcachedConnectionDetails implements MemcachedConnectionDetails {

    private final List<ServerAddress> servers;
    private final GrizzlyMemcachedProperties properties;
    private final SslBundles sslBundles;

    /**
     * @param sslBundles the application's bundles, or {@code null} when there are none
     */
    PropertiesMemcachedConnectionDetails(GrizzlyMemcachedProperties properties, SslBundles sslBundles) {
        this.servers = List.copyOf(ServerAddress.parseAll(properties.getServers()));
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

    @Override
    public List<ServerAddress> getServers() {
        return servers;
    }
}
