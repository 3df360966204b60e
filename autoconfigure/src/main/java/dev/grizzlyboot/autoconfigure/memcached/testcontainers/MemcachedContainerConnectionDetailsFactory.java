package dev.grizzlyboot.autoconfigure.memcached.testcontainers;

import java.util.List;

import dev.grizzlyboot.autoconfigure.memcached.MemcachedConnectionDetails;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.testcontainers.containers.Container;

/**
 * Lets {@code @ServiceConnection} on a Testcontainers container running memcached (image
 * {@code memcached}, or any container with {@code @ServiceConnection(name = "memcached")}) provide
 * the {@link MemcachedConnectionDetails}: the container's host and its mapped port 11211.
 * Registered in {@code META-INF/spring.factories}; instantiated and used by Spring Boot.
 */
class MemcachedContainerConnectionDetailsFactory
        extends ContainerConnectionDetailsFactory<Container<?>, MemcachedConnectionDetails> {

    /** The port memcached listens on inside its container. */
    static final int MEMCACHED_PORT = 11211;

    MemcachedContainerConnectionDetailsFactory() {
        super("memcached");
    }

    @Override
    protected MemcachedConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
        return new MemcachedContainerConnectionDetails(source);
    }

    /** The servers of one container, read when first asked for (the container is started by then). */
    static final class MemcachedContainerConnectionDetails extends ContainerConnectionDetails<Container<?>>
            implements MemcachedConnectionDetails {

        private MemcachedContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
            super(source);
        }

        @Override
        public List<ServerAddress> getServers() {
            Container<?> container = getContainer();
            return List.of(new ServerAddress(container.getHost(), container.getMappedPort(MEMCACHED_PORT)));
        }

        /** The bundle of the container's {@code @Ssl...} annotations, if any (memcached then runs with -Z). */
        @Override
        public SslBundle getSslBundle() {
            return super.getSslBundle();
        }
    }
}
