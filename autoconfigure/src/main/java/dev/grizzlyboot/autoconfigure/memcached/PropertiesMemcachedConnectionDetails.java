package dev.grizzlyboot.autoconfigure.memcached;

import java.util.List;

import dev.grizzlyboot.memcached.cluster.ServerAddress;

/**
 * {@link MemcachedConnectionDetails} read from {@code grizzly.memcached.servers}, parsed once when
 * the bean is created, so a malformed address fails the start-up (explained by
 * {@link InvalidServerListFailureAnalyzer}) rather than the first call.
 */
final class PropertiesMemcachedConnectionDetails implements MemcachedConnectionDetails {

    private final List<ServerAddress> servers;

    PropertiesMemcachedConnectionDetails(GrizzlyMemcachedProperties properties) {
        this.servers = parse(properties.getServers());
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
