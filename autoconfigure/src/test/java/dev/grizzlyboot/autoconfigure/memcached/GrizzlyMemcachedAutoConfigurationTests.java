package dev.grizzlyboot.autoconfigure.memcached;

import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.autoconfigure.RestartClassLoader;
import dev.grizzlyboot.autoconfigure.YamlFiles;
import dev.grizzlyboot.memcached.IoStrategy;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.MemcachedTimeoutException;
import dev.grizzlyboot.memcached.TranscoderException;
import dev.grizzlyboot.memcached.cluster.KetamaNaming;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class GrizzlyMemcachedAutoConfigurationTests {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @RegisterExtension
    static MemcachedExtension cluster = MemcachedExtension.servers(3);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GrizzlyMemcachedAutoConfiguration.class));

    @Test
    void defaultsToLocalMemcachedOnTheStandardPort() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(MemcachedClient.class);
            assertThat(context).getBean(MemcachedConnectionDetails.class).isInstanceOf(PropertiesMemcachedConnectionDetails.class);
            assertThat(context.getBean(MemcachedClient.class).servers()).containsExactly(ServerAddress.parse("127.0.0.1:11211"));
        });
    }

    @Test
    void serversAsCommaSeparatedList() {
        runner.withPropertyValues("grizzly.memcached.servers=127.0.0.1:21211, 127.0.0.1:21212,127.0.0.1:21213").run(context ->
                assertThat(context.getBean(MemcachedClient.class).servers()).containsExactly(
                        ServerAddress.parse("127.0.0.1:21211"), ServerAddress.parse("127.0.0.1:21212"),
                        ServerAddress.parse("127.0.0.1:21213")));
    }

    @Test
    void serversAsYamlListAndDurationsFromYaml() {
        runner.withInitializer(YamlFiles.load("servers-as-yaml-list.yml")).run(context -> {
            assertThat(context.getBean(MemcachedClient.class).servers()).containsExactly(
                    ServerAddress.parse("127.0.0.1:21211"), ServerAddress.parse("127.0.0.1:21212"));
            GrizzlyMemcachedProperties properties = context.getBean(GrizzlyMemcachedProperties.class);
            assertThat(properties.getOperationTimeout()).isEqualTo(Duration.ofMillis(750));
            assertThat(properties.getPool().getIdleTimeout()).isEqualTo(Duration.ofMinutes(2));
            assertThat(properties.getPool().getMaxConnections()).isEqualTo(2);
        });
    }

    @Test
    void clusterPropertiesShapeTheRingAndReplicateWrites() {
        List<String> servers = cluster.addresses();
        runner.withPropertyValues("grizzly.memcached.servers=" + cluster.addressList(),
                "grizzly.memcached.cluster.replicas=1", "grizzly.memcached.cluster.ketama-naming=libmemcached",
                "grizzly.memcached.cluster.failover=false", "grizzly.memcached.cluster.failure-threshold=5",
                "grizzly.memcached.cluster.health-check-interval=20ms",
                "grizzly.memcached.cluster.max-health-check-interval=300ms")
                // A map key with a colon: withPropertyValues would split "key:value" at it.
                .withInitializer(context -> context.getEnvironment().getPropertySources().addFirst(new MapPropertySource(
                        "weights", Map.of("grizzly.memcached.cluster.weights[" + servers.get(0) + "]", "3"))))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    try (MemcachedClient reference = MemcachedClient.builder().servers(servers)
                            .ketamaNaming(KetamaNaming.LIBMEMCACHED).weight(servers.get(0), 3).build()) {
                        for (int i = 0; i < 1_000; i++) {
                            assertThat(client.ownerOf("key-" + i)).isEqualTo(reference.ownerOf("key-" + i));
                        }
                    }
                    client.blocking().set("replicated-by-properties", "v", Duration.ZERO);
                    assertThat(cluster.servers().all()).filteredOn(server ->
                            server.textCommand("get replicated-by-properties").contains("v")).hasSize(2);
                    GrizzlyMemcachedProperties.Cluster properties = context.getBean(GrizzlyMemcachedProperties.class).getCluster();
                    assertThat(properties.isFailover()).isFalse();
                    assertThat(properties.getFailureThreshold()).isEqualTo(5);
                    assertThat(properties.getHealthCheckInterval()).isEqualTo(Duration.ofMillis(20));
                    assertThat(properties.getMaxHealthCheckInterval()).isEqualTo(Duration.ofMillis(300));
                });
    }

    @Test
    void nearCachePropertiesPutAnInProcessTierInFront() {
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                "grizzly.memcached.near-cache.enabled=true", "grizzly.memcached.near-cache.ttl=30s",
                "grizzly.memcached.near-cache.max-entries=100").run(context -> {
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    client.blocking().set("near-by-properties", "v", Duration.ZERO);
                    client.blocking().get("near-by-properties");
                    long gets = Long.parseLong(memcached.first().stats().get("cmd_get"));
                    assertThat(client.blocking().get("near-by-properties")).isEqualTo("v");
                    assertThat(Long.parseLong(memcached.first().stats().get("cmd_get"))).as("served in process").isEqualTo(gets);
                });
    }

    @Test
    void failbackFlushIsOnByDefaultAndConfigurable() {
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList()).run(context -> {
            GrizzlyMemcachedProperties.FailbackFlush flush = context.getBean(GrizzlyMemcachedProperties.class).getCluster().getFailbackFlush();
            assertThat(flush.isEnabled()).isTrue();
            assertThat(flush.getMinimumOutage()).isZero();
        });
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                "grizzly.memcached.cluster.failback-flush.enabled=false",
                "grizzly.memcached.cluster.failback-flush.minimum-outage=30s").run(context -> {
                    assertThat(context).hasNotFailed();
                    GrizzlyMemcachedProperties.FailbackFlush flush = context.getBean(GrizzlyMemcachedProperties.class).getCluster()
                            .getFailbackFlush();
                    assertThat(flush.isEnabled()).isFalse();
                    assertThat(flush.getMinimumOutage()).isEqualTo(Duration.ofSeconds(30));
                });
    }

    @Test
    void bindsEveryClientProperty() {
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                "grizzly.memcached.connect-timeout=300ms", "grizzly.memcached.max-item-size=2MB",
                "grizzly.memcached.io-strategy=worker-thread", "grizzly.memcached.io-threads=1",
                "grizzly.memcached.worker-threads=3", "grizzly.memcached.caller-spin=50us", "grizzly.memcached.pool.min-connections=2",
                "grizzly.memcached.pool.max-connections=6", "grizzly.memcached.pool.pipeline-depth=8",
                "grizzly.memcached.pool.reconnect-backoff=50ms", "grizzly.memcached.pool.max-reconnect-backoff=2s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    GrizzlyMemcachedProperties properties = context.getBean(GrizzlyMemcachedProperties.class);
                    assertThat(properties.getConnectTimeout()).isEqualTo(Duration.ofMillis(300));
                    assertThat(properties.getMaxItemSize()).isEqualTo(DataSize.ofMegabytes(2));
                    assertThat(properties.getIoStrategy()).isEqualTo(IoStrategy.WORKER_THREAD);
                    assertThat(properties.getIoThreads()).isEqualTo(1);
                    assertThat(properties.getWorkerThreads()).isEqualTo(3);
                    assertThat(properties.getCallerSpin()).isEqualTo(Duration.ofNanos(50_000));
                    GrizzlyMemcachedProperties.Pool pool = properties.getPool();
                    assertThat(pool.getMinConnections()).isEqualTo(2);
                    assertThat(pool.getMaxConnections()).isEqualTo(6);
                    assertThat(pool.getPipelineDepth()).isEqualTo(8);
                    assertThat(pool.getReconnectBackoff()).isEqualTo(Duration.ofMillis(50));
                    assertThat(pool.getMaxReconnectBackoff()).isEqualTo(Duration.ofSeconds(2));
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    client.blocking().set("bound", "yes", Duration.ofMinutes(1));
                    assertThat(client.blocking().get("bound")).isEqualTo("yes");
                    // min-connections=2 reaches the pool: the server sees both connections opened.
                    await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                            assertThat(Integer.parseInt(memcached.first().stats().get("curr_connections"))).isGreaterThanOrEqualTo(3));
                });
    }

    @Test
    void textBulkReadsReachTheBuilder() {
        // The builder refuses text bulk reads asked for with a login, so only a property that reached it fails the start.
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(), "grizzly.memcached.username=app",
                "grizzly.memcached.password=secret", "grizzly.memcached.text-bulk-reads=true")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("SASL is binary only"));
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(), "grizzly.memcached.text-bulk-reads=false")
                .run(context -> {
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    client.blocking().getMulti(List.of("a", "b", "c", "d"));
                    // Only the two binary connections: a bulk read opened no text ones.
                    assertThat(client.serverDetails()).allMatch(details -> details.openConnections() <= 2);
                });
    }

    @Test
    void callerSpinReachesTheBuilder() {
        // The builder refuses a window over 1 ms, so only a property that reached it fails the start.
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(), "grizzly.memcached.caller-spin=2ms")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("callerSpin"));
    }

    @Test
    void allowedClassesAndCompressionThresholdReachTheTranscoder() {
        Point point = new Point(3, 4);
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList()).run(context -> {
            MemcachedClient client = context.getBean(MemcachedClient.class);
            client.blocking().set("point", point, Duration.ofMinutes(1));
            assertThatThrownBy(() -> client.blocking().get("point")).isInstanceOf(TranscoderException.class)
                    .hasMessageContaining("allow-list");
        });
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                "grizzly.memcached.transcoder.allowed-classes=dev.grizzlyboot.autoconfigure.memcached.*",
                "grizzly.memcached.transcoder.compression-threshold=10B").run(context -> {
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    client.blocking().set("point", point, Duration.ofMinutes(1));
                    assertThat(client.blocking().get("point")).isEqualTo(point);
                    String text = "a".repeat(1_000);
                    client.blocking().set("long-text", text, Duration.ofMinutes(1));
                    // Stored gzipped (well under 1,000 bytes) because the threshold is 10 bytes.
                    assertThat(memcached.first().textCommand("mg long-text s")).first().asString()
                            .matches("HD s\\d{1,3}");
                    assertThat(client.blocking().get("long-text")).isEqualTo(text);
                });
    }

    /** The inflating limit reaches the transcoder: values up to it are gzipped, larger ones stored as they are. */
    @Test
    void maxUncompressedSizeReachesTheTranscoder() {
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                "grizzly.memcached.transcoder.compression-threshold=10B",
                "grizzly.memcached.transcoder.max-uncompressed-size=500B").run(context -> {
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    client.blocking().set("within-limit", "a".repeat(500), Duration.ofMinutes(1));
                    client.blocking().set("over-limit", "a".repeat(501), Duration.ofMinutes(1));
                    assertThat(memcached.first().textCommand("mg within-limit s")).first().asString().matches("HD s\\d{1,2}");
                    assertThat(memcached.first().textCommand("mg over-limit s")).first().asString().isEqualTo("HD s501");
                    assertThat(client.blocking().get("over-limit")).isEqualTo("a".repeat(501));
                });
    }

    @Test
    void withoutAllowedClassesTheApplicationsPackagesAreAllowed() {
        Point point = new Point(5, 12);
        // The @SpringBootApplication class sits in a parent package: sub-packages are allowed too.
        runner.withInitializer(context -> AutoConfigurationPackages.register((BeanDefinitionRegistry) context.getBeanFactory(),
                "dev.grizzlyboot.autoconfigure"))
                .withPropertyValues("grizzly.memcached.servers=" + memcached.addressList()).run(context -> {
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    client.blocking().set("point", point, Duration.ofMinutes(1));
                    assertThat(client.blocking().get("point")).isEqualTo(point);
                    // Still an allow-list: a class outside the application's packages and the JDK defaults is refused.
                    client.blocking().set("uri", URI.create("http://127.0.0.1/"), Duration.ofMinutes(1));
                    assertThatThrownBy(() -> client.blocking().get("uri")).isInstanceOf(TranscoderException.class)
                            .hasMessageContaining("allow-list");
                });
    }

    @Test
    void allowedClassesReplaceTheApplicationsPackages() {
        runner.withInitializer(context -> AutoConfigurationPackages.register((BeanDefinitionRegistry) context.getBeanFactory(),
                "dev.grizzlyboot.autoconfigure"))
                .withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                        "grizzly.memcached.transcoder.allowed-classes=java.net.*").run(context -> {
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    client.blocking().set("point", new Point(1, 1), Duration.ofMinutes(1));
                    assertThatThrownBy(() -> client.blocking().get("point")).isInstanceOf(TranscoderException.class);
                });
    }

    @Test
    void valuesAreReadWithTheApplicationsClassLoader() throws Exception {
        try (RestartClassLoader restarted = new RestartClassLoader(Point.class)) {
            Object point = restarted.newInstance(Point.class, new Class<?>[] {int.class, int.class}, 6, 8);
            runner.withClassLoader(restarted)
                    .withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                            "grizzly.memcached.transcoder.allowed-classes=dev.grizzlyboot.autoconfigure.memcached.*")
                    .run(context -> {
                        MemcachedClient client = context.getBean(MemcachedClient.class);
                        client.blocking().set("restarted-point", point, Duration.ofMinutes(1));
                        // The restarted application's class, not the one the client's own loader sees.
                        assertThat(client.blocking().get("restarted-point")).isEqualTo(point)
                                .isInstanceOf(point.getClass()).isNotInstanceOf(Point.class);
                    });
        }
    }

    @Test
    void operationTimeoutReachesTheClient() {
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                "grizzly.memcached.operation-timeout=100ms").run(context -> {
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    client.blocking().set("warm", "up", Duration.ofMinutes(1));
                    memcached.first().pause();
                    // SIGSTOP takes effect asynchronously: retry until the server no longer answers.
                    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                        long start = System.nanoTime();
                        assertThatThrownBy(() -> client.blocking().get("warm")).isInstanceOf(MemcachedTimeoutException.class);
                        // The client's default is 1 s; failing well before it proves the property was applied.
                        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(700));
                    });
                    memcached.first().resume();
                });
    }

    @Test
    void clientIsClosedWithTheContext() {
        int before = connections();
        ConfigurableApplicationContext[] started = new ConfigurableApplicationContext[1];
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                "grizzly.memcached.pool.min-connections=2").run(context -> {
                    context.getBean(MemcachedClient.class).blocking().noop();
                    await().atMost(Duration.ofSeconds(5)).until(() -> connections() >= before + 2);
                    started[0] = context;
                });
        assertThat(started[0].isActive()).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> connections() <= before);
    }

    @Test
    void backsOffWhenTheApplicationDefinesAClient() {
        runner.withUserConfiguration(OwnClient.class).run(context -> {
            assertThat(context).hasSingleBean(MemcachedClient.class);
            assertThat(context.getBean(MemcachedClient.class)).isSameAs(context.getBean(OwnClient.class).client);
        });
    }

    @Test
    void connectionDetailsBeanReplacesTheServersProperty() {
        runner.withUserConfiguration(OwnConnectionDetails.class)
                .withPropertyValues("grizzly.memcached.servers=127.0.0.1:21211").run(context -> {
                    assertThat(context).hasSingleBean(MemcachedConnectionDetails.class);
                    assertThat(context).doesNotHaveBean(PropertiesMemcachedConnectionDetails.class);
                    assertThat(context.getBean(MemcachedClient.class).servers())
                            .containsExactly(ServerAddress.parse("127.0.0.1:31211"));
                });
    }

    @Test
    void builderCustomizersRunAfterTheProperties() {
        runner.withPropertyValues("grizzly.memcached.servers=127.0.0.1:21211")
                .withBean(MemcachedClientBuilderCustomizer.class, () -> builder -> builder.servers("127.0.0.1:21299"))
                .run(context -> assertThat(context.getBean(MemcachedClient.class).servers()).containsExactly(
                        ServerAddress.parse("127.0.0.1:21211"), ServerAddress.parse("127.0.0.1:21299")));
    }

    @Test
    void emptyServerListFailsStartUpWithAClearMessage() {
        runner.withPropertyValues("grizzly.memcached.servers=").run(context ->
                assertThat(context).getFailure().rootCause().isInstanceOf(InvalidServerListException.class)
                        .hasMessageContaining("names no server"));
    }

    @Test
    void invalidSettingsFailStartUpWithAClearMessage() {
        runner.withPropertyValues("grizzly.memcached.operation-timeout=0s").run(context ->
                assertThat(context).getFailure().rootCause().isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("operationTimeout must be positive"));
        runner.withPropertyValues("grizzly.memcached.pool.min-connections=5", "grizzly.memcached.pool.max-connections=2")
                .run(context -> assertThat(context).getFailure().rootCause().isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("minConnections <= maxConnections"));
        runner.withPropertyValues("grizzly.memcached.servers=127.0.0.1:not-a-port").run(context ->
                assertThat(context).getFailure().rootCause().hasMessageContaining("not-a-port"));
    }

    private static int connections() {
        return Integer.parseInt(memcached.first().stats().get("curr_connections"));
    }


    record Point(int x, int y) implements Serializable {
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnClient {

        final MemcachedClient client = MemcachedClient.builder().servers("127.0.0.1:21222").build();

        @Bean(destroyMethod = "close")
        MemcachedClient ownMemcachedClient() {
            return client;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnConnectionDetails {

        @Bean
        MemcachedConnectionDetails ownConnectionDetails() {
            return () -> List.of(new ServerAddress("127.0.0.1", 31211));
        }
    }
}
