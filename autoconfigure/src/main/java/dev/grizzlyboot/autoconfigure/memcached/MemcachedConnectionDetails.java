package dev.grizzlyboot.autoconfigure.memcached;

import java.util.List;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.ssl.SslBundle;

/**
 * Where the memcached servers are. By default read from {@code grizzly.memcached.servers}; a bean of
 * this type (for example one that {@code @ServiceConnection} creates for a Testcontainers container)
 * replaces the properties. Implementations must be thread-safe.
 */
public interface MemcachedConnectionDetails extends ConnectionDetails {

    /** The servers, in list order (the order Ketama hashing sees). */
    List<ServerAddress> getServers();

    /** The SASL PLAIN user to log in as, or {@code null} for servers that need no login. */
    default String getUsername() {
        return null;
    }

    /** The SASL password, or {@code null}. */
    default String getPassword() {
        return null;
    }

    /** The SSL bundle to speak TLS with, or {@code null} for plaintext. */
    default SslBundle getSslBundle() {
        return null;
    }
}
