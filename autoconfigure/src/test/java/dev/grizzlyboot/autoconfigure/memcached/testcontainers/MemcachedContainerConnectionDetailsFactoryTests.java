package dev.grizzlyboot.autoconfigure.memcached.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.grizzlyboot.autoconfigure.memcached.MemcachedConnectionDetails;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactory;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.testcontainers.containers.Container;

/**
 * The factory's registration and its mapping from a container to servers, without Docker: the
 * container is a stand-in that answers only host and mapped port, which is all the factory reads.
 */
class MemcachedContainerConnectionDetailsFactoryTests {

    @ServiceConnection(name = "memcached")
    private static Object namedMemcached;

    @ServiceConnection
    private static Object unnamed;

    @Test
    void isRegisteredForSpringBootToFind() {
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(ConnectionDetailsFactory.class))
                .hasAtLeastOneElementOfType(MemcachedContainerConnectionDetailsFactory.class);
    }

    @Test
    void mapsTheContainerToItsHostAndMappedPort() throws Exception {
        Container<?> container = container("10.1.2.3", 32771);
        Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(getClass().getClassLoader())
                .getConnectionDetails(source("namedMemcached", "example/cache:1.0", container), false);
        assertThat(details).containsOnlyKeys(MemcachedConnectionDetails.class);
        MemcachedConnectionDetails memcached = (MemcachedConnectionDetails) details.get(MemcachedConnectionDetails.class);
        ((InitializingBean) memcached).afterPropertiesSet();
        assertThat(memcached.getServers()).containsExactly(new ServerAddress("10.1.2.3", 32771));
    }

    @Test
    void acceptsAMemcachedImageWithoutAName() throws Exception {
        Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(getClass().getClassLoader())
                .getConnectionDetails(source("unnamed", "memcached:1.6-alpine", container("localhost", 1)), false);
        assertThat(details).containsOnlyKeys(MemcachedConnectionDetails.class);
    }

    @Test
    void ignoresContainersOfOtherServices() throws Exception {
        Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(getClass().getClassLoader())
                .getConnectionDetails(source("unnamed", "redis:7", container("localhost", 1)), false);
        assertThat(details).isEmpty();
    }

    private static Container<?> container(String host, int mappedPort) {
        return (Container<?>) Proxy.newProxyInstance(Container.class.getClassLoader(), new Class<?>[] { Container.class },
                (proxy, method, args) -> switch (method.getName()) {
                    case "getHost" -> host;
                    case "getMappedPort" -> (int) args[0] == MemcachedContainerConnectionDetailsFactory.MEMCACHED_PORT
                            ? mappedPort : failPort(args[0]);
                    case "toString" -> "stand-in container";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static Object failPort(Object port) {
        throw new IllegalArgumentException("port " + port + " is not exposed");
    }

    /**
     * Builds the source Spring Boot builds for a {@code @ServiceConnection} field. Its constructor is
     * package-private (Boot builds sources only from the test context), so the test reaches it
     * reflectively; Spring Boot's version is pinned by the BOM.
     */
    private static ContainerConnectionSource<?> source(String field, String image, Container<?> container) throws Exception {
        ServiceConnection annotation = MemcachedContainerConnectionDetailsFactoryTests.class.getDeclaredField(field)
                .getAnnotation(ServiceConnection.class);
        Class<?> sslBundleSource = Class.forName("org.springframework.boot.testcontainers.service.connection.SslBundleSource");
        Constructor<?> constructor = ContainerConnectionSource.class.getDeclaredConstructor(String.class, Origin.class,
                Class.class, String.class, ServiceConnection.class, Supplier.class, sslBundleSource, MergedAnnotations.class);
        constructor.setAccessible(true);
        Supplier<Container<?>> supplier = () -> container;
        return (ContainerConnectionSource<?>) constructor.newInstance("test", null, container.getClass(), image, annotation,
                supplier, null, MergedAnnotations.of(List.of()));
    }
}
