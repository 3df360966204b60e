package dev.grizzlyboot.autoconfigure.memcached;

import java.time.Duration;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class GrizzlyMemcachedMetricsAutoConfigurationTests {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GrizzlyMemcachedMetricsAutoConfiguration.class,
                    GrizzlyMemcachedAutoConfiguration.class))
            .withPropertyValues("grizzly.memcached.servers=" + memcached.addressList());

    @Test
    void theClientPublishesItsMetersToTheApplicationsRegistry() {
        runner.withBean(SimpleMeterRegistry.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            MemcachedClient client = context.getBean(MemcachedClient.class);
            client.blocking().set("boot-metered", "v", Duration.ofMinutes(1));
            client.blocking().get("boot-metered");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(registry.get("memcached.client.requests")
                    .tag("operation", "get").tag("outcome", "success").timer().count()).isOne());
            assertThat(registry.get("memcached.client.connections").tag("server", memcached.first().address()).gauge())
                    .isNotNull();
        });
    }

    @Test
    void noMetersWithoutARegistry() {
        runner.run(context -> assertThat(context).hasSingleBean(MemcachedClient.class)
                .doesNotHaveBean(MemcachedClientBuilderCustomizer.class));
    }

    @Test
    void theClientWorksWithoutMicrometer() {
        runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run(context -> {
            MemcachedClient client = context.getBean(MemcachedClient.class);
            client.blocking().set("no-micrometer", "v", Duration.ofMinutes(1));
            assertThat(client.blocking().get("no-micrometer")).isEqualTo("v");
        });
    }
}
