package dev.grizzlyboot.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedProperties;
import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClientProperties;
import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClientsProperties;
import dev.grizzlyboot.autoconfigure.thrift.server.ThriftServerProperties;
import dev.grizzlyboot.autoconfigure.zookeeper.GrizzlyMemcachedZooKeeperProperties;
import dev.grizzlyboot.memcached.IoStrategy;
import dev.grizzlyboot.memcached.cluster.KetamaNaming;
import dev.grizzlyboot.thrift.ThriftProtocol;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a property left unset binds to is what the documentation's tables promise: docs/cache.md
 * ({@code grizzly.memcached.*}, {@code grizzly.memcached.cache.*}), docs/thrift.md ({@code grizzly.thrift.*})
 * and docs/zookeeper.md ({@code grizzly.memcached.zookeeper.*}). A default changed in code alone fails here.
 */
class PropertyDefaultsTests {

    @Test
    void memcachedClientDefaultsAreTheDocumentedOnes() {
        GrizzlyMemcachedProperties memcached = bind(Map.of(), "grizzly.memcached", GrizzlyMemcachedProperties.class);
        assertThat(memcached.getServers()).containsExactly("127.0.0.1:11211");
        assertThat(memcached.getOperationTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(memcached.getConnectTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(memcached.getMaxItemSize()).isEqualTo(DataSize.ofMegabytes(1));
        assertThat(memcached.getIoStrategy()).isEqualTo(IoStrategy.SAME_THREAD);
        // Unset: the client picks by core count (and text-bulk-reads by whether there is a username).
        assertThat(memcached.getIoThreads()).isNull();
        assertThat(memcached.getWorkerThreads()).isNull();
        assertThat(memcached.getCallerSpin()).isNull();
        assertThat(memcached.getTextBulkReads()).isNull();
        GrizzlyMemcachedProperties.Pool pool = memcached.getPool();
        assertThat(List.of(pool.getMinConnections(), pool.getMaxConnections(), pool.getPipelineDepth())).containsExactly(2, 2, 32);
        assertThat(pool.getIdleTimeout()).isEqualTo(Duration.ofMinutes(1));
        assertThat(pool.getReconnectBackoff()).isEqualTo(Duration.ofMillis(100));
        assertThat(pool.getMaxReconnectBackoff()).isEqualTo(Duration.ofSeconds(5));
        assertThat(memcached.getTranscoder().getAllowedClasses()).isEmpty();
        assertThat(memcached.getTranscoder().getCompressionThreshold()).isEqualTo(DataSize.ofKilobytes(16));
        assertThat(memcached.getTranscoder().getMaxUncompressedSize()).isEqualTo(DataSize.ofMegabytes(32));
        GrizzlyMemcachedProperties.Cluster cluster = memcached.getCluster();
        assertThat(cluster.isFailover()).isTrue();
        assertThat(cluster.getFailureThreshold()).isEqualTo(3);
        assertThat(cluster.getHealthCheckInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(cluster.getMaxHealthCheckInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(cluster.getReplicas()).isZero();
        assertThat(cluster.getKetamaNaming()).isEqualTo(KetamaNaming.HOST_PORT);
        assertThat(cluster.getWeights()).isEmpty();
        assertThat(memcached.getNearCache().isEnabled()).isFalse();
        assertThat(memcached.getNearCache().getTtl()).isEqualTo(Duration.ofSeconds(5));
        assertThat(memcached.getNearCache().getMaxEntries()).isEqualTo(10_000);
        assertThat(memcached.getUsername()).isNull();
        assertThat(memcached.getSsl().isVerifyHostname()).isTrue();
    }

    @Test
    void cacheDefaultsAreTheDocumentedOnes() {
        GrizzlyMemcachedProperties.Cache cache = bind(Map.of(), "grizzly.memcached", GrizzlyMemcachedProperties.class).getCache();
        assertThat(cache.getDefaultTtl()).isEqualTo(Duration.ZERO);
        assertThat(cache.getTtlJitter()).isZero();
        assertThat(cache.getKeyPrefix()).isEmpty();
        assertThat(cache.isCacheNullValues()).isTrue();
        assertThat(cache.isPropagateErrors()).isFalse();
        assertThat(cache.getGenerationRefreshInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(cache.getCaches()).isEmpty();
        // A cache named under caches leaves what it does not set to the defaults above.
        GrizzlyMemcachedProperties.CacheSpec books = bind(Map.of("grizzly.memcached.cache.caches.books.ttl", "1h"),
                "grizzly.memcached", GrizzlyMemcachedProperties.class).getCache().getCaches().get("books");
        assertThat(books.getTtl()).isEqualTo(Duration.ofHours(1));
        assertThat(books.getTtlJitter()).isNull();
        assertThat(books.getKeyPrefix()).isNull();
        assertThat(books.getCacheNullValues()).isNull();
    }

    @Test
    void thriftDefaultsAreTheDocumentedOnes() {
        ThriftServerProperties server = bind(Map.of(), "grizzly.thrift.server", ThriftServerProperties.class);
        assertThat(server.isEnabled()).isTrue();
        assertThat(server.getHost()).isEqualTo("0.0.0.0");
        assertThat(server.getPort()).isEqualTo(9090);
        assertThat(server.getIoStrategy()).isEqualTo(dev.grizzlyboot.thrift.server.IoStrategy.CONNECTION_READER);
        assertThat(server.getProtocol()).isEqualTo(ThriftProtocol.BINARY);
        assertThat(server.getWorkerThreads()).isEqualTo(32);
        assertThat(server.getSelectorThreads()).isNull();
        assertThat(server.getMaxFrameSize()).isEqualTo(DataSize.ofBytes(16_384_000));
        assertThat(server.getIdleTimeout()).isEqualTo(Duration.ofMinutes(5));
        // Unset: the auto-configuration follows server.shutdown.
        assertThat(server.getShutdown()).isNull();
        assertThat(server.getSsl().getBundle()).isNull();
        assertThat(server.getSsl().getClientAuth()).isEqualTo(ThriftServerProperties.ClientAuth.NONE);

        ThriftClientProperties client = bind(Map.of("grizzly.thrift.clients.calculator.servers", "127.0.0.1:7911",
                        "grizzly.thrift.clients.calculator.service", "tutorial.Calculator"),
                "grizzly.thrift", ThriftClientsProperties.class).getClients().get("calculator");
        assertThat(client.getProtocol()).isEqualTo(ThriftProtocol.BINARY);
        assertThat(client.getMultiplexedName()).isNull();
        assertThat(client.getConnectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(client.getReadTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(client.getMethodTimeouts()).isEmpty();
        assertThat(client.getIdempotentMethods()).isEmpty();
        assertThat(client.getMaxConnections()).isEqualTo(16);
        assertThat(client.getIdleTimeout()).isEqualTo(Duration.ofMinutes(1));
        assertThat(client.getRetries()).isEqualTo(2);
        assertThat(client.getMaxFrameSize()).isEqualTo(DataSize.ofBytes(16_384_000));
        assertThat(client.getSsl().getBundle()).isNull();
        assertThat(client.getSsl().isVerifyHostname()).isTrue();
    }

    @Test
    void zooKeeperDefaultsAreTheDocumentedOnes() {
        GrizzlyMemcachedZooKeeperProperties zookeeper = bind(Map.of(), "grizzly.memcached.zookeeper",
                GrizzlyMemcachedZooKeeperProperties.class);
        assertThat(zookeeper.getConnectString()).isNull();
        assertThat(zookeeper.getRoot()).isEqualTo("/grizzly-memcached");
        assertThat(zookeeper.getCluster()).isEqualTo("default");
        assertThat(zookeeper.getMemberId()).isNull();
        assertThat(zookeeper.getCommitDelay()).isEqualTo(Duration.ofSeconds(5));
        assertThat(zookeeper.getPrepareTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(zookeeper.getSessionTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(zookeeper.getConnectionTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(zookeeper.getAuth().getScheme()).isEqualTo("digest");
        assertThat(zookeeper.getAuth().getCredentials()).isNull();
    }

    private static <T> T bind(Map<String, String> properties, String prefix, Class<T> type) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate(prefix, type);
    }
}
