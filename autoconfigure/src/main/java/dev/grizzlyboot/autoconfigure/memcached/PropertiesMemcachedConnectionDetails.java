package dev.grizzlyboot.autoconfigure.memcached;

import java.util.List;

/** {@link MemcachedConnectionDetails} read from {@code grizzly.memcached.servers}. */
final class PropertiesMemcachedConnectionDetails implements MemcachedConnectionDetails {

    private final GrizzlyMemcachedProperties properties;

    PropertiesMemcachedConnectionDetails(GrizzlyMemcachedProperties properties) {
        this.properties = properties;
    }

    @Override
    public List<String> getServers() {
        return List.copyOf(properties.getServers());
    }
}
