package dev.grizzlyboot.autoconfigure;

import java.util.List;
import java.util.Map;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedProperties;
import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClientsProperties;
import dev.grizzlyboot.autoconfigure.zookeeper.GrizzlyMemcachedZooKeeperProperties;
import dev.grizzlyboot.autoconfigure.thrift.server.ThriftServerProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Values a Boot user would try, bound as Boot binds them: what is wrong fails as a bind error that
 * names the property (Boot's failure analysis then prints it with its value and origin), and the
 * usual spellings of one value bind alike.
 */
class PropertyBindingTests {

    @ParameterizedTest
    @CsvSource({
            "grizzly.thrift.server.max-frame-size, grizzly.thrift.server, dev.grizzlyboot.autoconfigure.thrift.server.ThriftServerProperties",
            "grizzly.thrift.clients.calc.max-frame-size, grizzly.thrift, dev.grizzlyboot.autoconfigure.thrift.client.ThriftClientsProperties",
            "grizzly.memcached.max-item-size, grizzly.memcached, dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedProperties",
            "grizzly.memcached.transcoder.compression-threshold, grizzly.memcached, dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedProperties",
            "grizzly.memcached.transcoder.max-uncompressed-size, grizzly.memcached, dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedProperties"})
    void aSizeBeyondAnIntIsABindErrorNamingTheProperty(String name, String prefix, Class<?> type) {
        assertThatExceptionOfType(BindException.class)
                .isThrownBy(() -> bind(Map.of(name, "3GB"), prefix, type))
                .satisfies(failure -> assertThat(failure.getProperty().getName().toString()).isEqualTo(name))
                .havingRootCause().withMessage("must be at most 2147483647B");
    }

    @ParameterizedTest
    @CsvSource({
            "grizzly.memcached.cache.default-ttl, -5s, must not be negative",
            "grizzly.memcached.cache.caches.books.ttl, -1ms, must not be negative",
            "grizzly.memcached.cache.generation-refresh-interval, -1s, must not be negative",
            "grizzly.memcached.cache.ttl-jitter, 2, must be at least 0 and below 1",
            "grizzly.memcached.cache.ttl-jitter, 1, must be at least 0 and below 1",
            "grizzly.memcached.cache.ttl-jitter, -0.1, must be at least 0 and below 1",
            "grizzly.memcached.cache.ttl-jitter, NaN, must be at least 0 and below 1",
            "grizzly.memcached.cache.caches.books.ttl-jitter, 1.5, must be at least 0 and below 1"})
    void anInvalidCacheSettingIsABindErrorNamingTheProperty(String name, String value, String message) {
        assertThatExceptionOfType(BindException.class)
                .isThrownBy(() -> bind(Map.of(name, value), "grizzly.memcached", GrizzlyMemcachedProperties.class))
                .satisfies(failure -> assertThat(failure.getProperty().getName().toString()).isEqualTo(name))
                .havingRootCause().withMessage(message);
    }

    @Test
    void theCacheSettingsAtTheirLimitsStillBind() {
        GrizzlyMemcachedProperties properties = bind(Map.of("grizzly.memcached.cache.default-ttl", "0s",
                "grizzly.memcached.cache.ttl-jitter", "0.999", "grizzly.memcached.cache.caches.books.ttl-jitter", "0"),
                "grizzly.memcached", GrizzlyMemcachedProperties.class);
        assertThat(properties.getCache().getTtlJitter()).isEqualTo(0.999);
        assertThat(properties.getCache().getCaches().get("books").getTtlJitter()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"grizzly.memcached.zookeeper.session-timeout", "grizzly.memcached.zookeeper.connection-timeout"})
    void aZooKeeperTimeoutBeyondIntMillisecondsIsABindErrorNamingTheProperty(String name) {
        assertThatExceptionOfType(BindException.class)
                .isThrownBy(() -> bind(Map.of(name, "25d"), "grizzly.memcached.zookeeper", GrizzlyMemcachedZooKeeperProperties.class))
                .satisfies(failure -> assertThat(failure.getProperty().getName().toString()).isEqualTo(name))
                .havingRootCause().withMessage("must be at most 2147483647ms");
        assertThat(bind(Map.of(name, "2147483647ms"), "grizzly.memcached.zookeeper", GrizzlyMemcachedZooKeeperProperties.class))
                .isNotNull();
    }

    @Test
    void theLargestIntSizeStillBinds() {
        ThriftServerProperties server = bind(Map.of("grizzly.thrift.server.max-frame-size", "2147483647B"),
                "grizzly.thrift.server", ThriftServerProperties.class);
        assertThat(server.getMaxFrameSize()).isEqualTo(DataSize.ofBytes(Integer.MAX_VALUE));
    }

    @Test
    void aServerListBindsAlikeAsCommaSeparatedTextAndAsAnIndexedList() {
        GrizzlyMemcachedProperties commas = bind(Map.of("grizzly.memcached.servers", "10.0.0.1:11211, 10.0.0.2:11211"),
                "grizzly.memcached", GrizzlyMemcachedProperties.class);
        GrizzlyMemcachedProperties indexed = bind(Map.of("grizzly.memcached.servers[0]", "10.0.0.1:11211",
                "grizzly.memcached.servers[1]", "10.0.0.2:11211"), "grizzly.memcached", GrizzlyMemcachedProperties.class);
        assertThat(commas.getServers()).isEqualTo(indexed.getServers()).isEqualTo(List.of("10.0.0.1:11211", "10.0.0.2:11211"));
    }

    @Test
    void environmentVariablesBindByBootsRelaxedNames() {
        Map<String, Object> variables = Map.of("GRIZZLY_THRIFT_SERVER_MAXFRAMESIZE", "1MB",
                "GRIZZLY_THRIFT_SERVER_IOSTRATEGY", "worker-thread", "GRIZZLY_THRIFT_CLIENTS_CALC_READTIMEOUT", "3s");
        Binder binder = new Binder(ConfigurationPropertySources.from(
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables)));
        ThriftServerProperties server = binder.bindOrCreate("grizzly.thrift.server", ThriftServerProperties.class);
        assertThat(server.getMaxFrameSize()).isEqualTo(DataSize.ofMegabytes(1));
        assertThat(server.getIoStrategy()).isEqualTo(dev.grizzlyboot.thrift.server.IoStrategy.WORKER_THREAD);
        ThriftClientsProperties clients = binder.bindOrCreate("grizzly.thrift", ThriftClientsProperties.class);
        assertThat(clients.getClients().get("calc").getReadTimeout()).hasSeconds(3);
    }

    private static <T> T bind(Map<String, String> properties, String prefix, Class<T> type) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate(prefix, type);
    }
}
