package dev.grizzlyboot.autoconfigure.memcached.docker.compose;

import java.util.List;

import dev.grizzlyboot.autoconfigure.memcached.MemcachedConnectionDetails;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionDetailsFactory;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;

/**
 * Lets Spring Boot's Docker Compose support provide the {@link MemcachedConnectionDetails} of a
 * {@code memcached} (or {@code bitnami/memcached}) service of the application's {@code compose.yaml},
 * or of any service labelled {@code org.springframework.boot.service-connection: memcached}: the
 * service's host and its published port for 11211. Registered in {@code META-INF/spring.factories};
 * instantiated and used by Spring Boot.
 */
class MemcachedDockerComposeConnectionDetailsFactory extends DockerComposeConnectionDetailsFactory<MemcachedConnectionDetails> {

    private static final String[] MEMCACHED_IMAGES = {"memcached", "bitnami/memcached"};

    /** The port memcached listens on inside its container. */
    static final int MEMCACHED_PORT = 11211;

    MemcachedDockerComposeConnectionDetailsFactory() {
        super(MEMCACHED_IMAGES);
    }

    @Override
    protected MemcachedConnectionDetails getDockerComposeConnectionDetails(DockerComposeConnectionSource source) {
        return new MemcachedDockerComposeConnectionDetails(source.getRunningService());
    }

    /** The one server a running memcached service offers. Immutable. */
    static final class MemcachedDockerComposeConnectionDetails extends DockerComposeConnectionDetails
            implements MemcachedConnectionDetails {

        private final List<ServerAddress> servers;

        MemcachedDockerComposeConnectionDetails(RunningService service) {
            super(service);
            this.servers = List.of(new ServerAddress(service.host(), service.ports().get(MEMCACHED_PORT)));
        }

        @Override
        public List<ServerAddress> getServers() {
            return servers;
        }
    }
}
