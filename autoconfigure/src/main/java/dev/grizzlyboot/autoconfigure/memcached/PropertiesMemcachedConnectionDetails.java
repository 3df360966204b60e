package dev.grizzlyboot.autoconfigure.memcached;

import java.util.List;

import dev.grizzlyboot.memcached.cluster.ServerAddress;

/**
 * {@link MemcachedConnectionDetails} read from {@code grizzly.memcached.servers}, parsed once when
 * the bean is created, so a malformed address fails the start-up rather than the first call.
 */
final class PropertiesMemcachedConnectionDetails implements MemcachedConnectionDetails {

    private final List<ServerAddress> servers;

    PropertiesMemcachedConnectionDetails(GrizzlyMemcachedProperties properties) {
        this.servers = List.copyOf(ServerAddress.parseAll(properties.getServers()));
    }

    @Override
    public List<ServerAddress> getServers() {
        return servers;
    }
}
