package dev.grizzlyboot.autoconfigure.memcached;

import java.util.List;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Where the memcached servers are. By default read from {@code grizzly.memcached.servers}; a bean of
 * this type (for example one that {@code @ServiceConnection} creates for a Testcontainers container)
 * replaces the properties. Implementations must be thread-safe.
 */
public interface MemcachedConnectionDetails extends ConnectionDetails {

    /** The servers, in list order (the order Ketama hashing sees). */
    List<ServerAddress> getServers();
}
