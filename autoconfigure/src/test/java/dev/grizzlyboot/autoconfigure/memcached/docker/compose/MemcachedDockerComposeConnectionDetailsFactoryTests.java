package dev.grizzlyboot.autoconfigure.memcached.docker.compose;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.autoconfigure.memcached.MemcachedConnectionDetails;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactory;
import org.springframework.boot.docker.compose.core.ConnectionPorts;
import org.springframework.boot.docker.compose.core.ImageReference;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * The factory's registration and its mapping from a running Compose service to servers, without
 * Docker: the service is a stand-in that answers what Spring Boot's Docker Compose support reads.
 */
class MemcachedDockerComposeConnectionDetailsFactoryTests {

    @Test
    void isRegisteredForSpringBootToFind() {
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(ConnectionDetailsFactory.class))
                .hasAtLeastOneElementOfType(MemcachedDockerComposeConnectionDetailsFactory.class);
    }

    @Test
    void mapsTheServiceToItsHostAndPublishedPort() throws Exception {
        MemcachedConnectionDetails details = memcachedDetails(service("memcached:1.6-alpine", Map.of(), "10.1.2.3", 32771));
        assertThat(details.getServers()).containsExactly(new ServerAddress("10.1.2.3", 32771));
    }

    @Test
    void acceptsTheBitnamiImage() throws Exception {
        assertThat(connectionDetails(service("bitnami/memcached:1.6", Map.of(), "localhost", 1)))
                .containsOnlyKeys(MemcachedConnectionDetails.class);
    }

    @Test
    void acceptsAnyImageLabelledAsMemcached() throws Exception {
        MemcachedConnectionDetails details = memcachedDetails(service("example/cache:2",
                Map.of("org.springframework.boot.service-connection", "memcached"), "127.0.0.1", 40000));
        assertThat(details.getServers()).containsExactly(new ServerAddress("127.0.0.1", 40000));
    }

    @Test
    void ignoresServicesOfOtherKinds() throws Exception {
        assertThat(connectionDetails(service("redis:7", Map.of(), "localhost", 1))).isEmpty();
    }

    private static MemcachedConnectionDetails memcachedDetails(RunningService service) throws Exception {
        Map<Class<?>, ConnectionDetails> details = connectionDetails(service);
        assertThat(details).containsOnlyKeys(MemcachedConnectionDetails.class);
        return (MemcachedConnectionDetails) details.get(MemcachedConnectionDetails.class);
    }

    private static Map<Class<?>, ConnectionDetails> connectionDetails(RunningService service) throws Exception {
        return new ConnectionDetailsFactories(MemcachedDockerComposeConnectionDetailsFactoryTests.class.getClassLoader())
                .getConnectionDetails(source(service), false);
    }

    /**
     * Builds the source Spring Boot builds for each running service. Its constructor is
     * package-private (Boot builds sources only while starting Compose), so the test reaches it
     * reflectively; Spring Boot's version is pinned by the BOM.
     */
    private static DockerComposeConnectionSource source(RunningService service) throws Exception {
        Constructor<DockerComposeConnectionSource> constructor = DockerComposeConnectionSource.class
                .getDeclaredConstructor(RunningService.class, org.springframework.core.env.Environment.class);
        constructor.setAccessible(true);
        return constructor.newInstance(service, new StandardEnvironment());
    }

    private static RunningService service(String image, Map<String, String> labels, String host, int publishedPort) {
        return new RunningService() {
            @Override
            public String name() {
                return "cache";
            }

            @Override
            public ImageReference image() {
                return ImageReference.of(image);
            }

            @Override
            public String host() {
                return host;
            }

            @Override
            public ConnectionPorts ports() {
                return new ConnectionPorts() {
                    @Override
                    public int get(int containerPort) {
                        if (containerPort != MemcachedDockerComposeConnectionDetailsFactory.MEMCACHED_PORT) {
                            throw new IllegalStateException("port " + containerPort + " is not published");
                        }
                        return publishedPort;
                    }

                    @Override
                    public List<Integer> getAll() {
                        return List.of(publishedPort);
                    }

                    @Override
                    public List<Integer> getAll(String protocol) {
                        return List.of(publishedPort);
                    }
                };
            }

            @Override
            public Map<String, String> env() {
                return Map.of();
            }

            @Override
            public Map<String, String> labels() {
                return labels;
            }
        };
    }
}
