package dev.grizzlyboot.autoconfigure.memcached.endpoint;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** When the {@code memcached} endpoint exists, and what it shows without ZooKeeper. */
class MemcachedEndpointAutoConfigurationTests {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GrizzlyMemcachedAutoConfiguration.class,
                    MemcachedEndpointAutoConfiguration.class))
            .withPropertyValues("grizzly.memcached.servers=" + memcached.addressList());

    @Test
    void notCreatedUnlessExposed() {
        runner.run(context -> assertThat(context).doesNotHaveBean(MemcachedEndpoint.class));
    }

    @Test
    void withoutZooKeeperShowsTheServersAndRefusesProposals() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=memcached").run(context -> {
            assertThat(context).hasSingleBean(MemcachedEndpointWebExtension.class).doesNotHaveBean(CoordinatedServerList.class);
            MemcachedEndpoint endpoint = context.getBean(MemcachedEndpoint.class);
            MemcachedEndpoint.MemcachedDescriptor descriptor = endpoint.memcached();
            assertThat(descriptor.serverList()).isNull();
            assertThat(descriptor.servers()).singleElement().satisfies(server -> {
                assertThat(server.server()).isEqualTo(memcached.first().address());
                assertThat(server.version()).startsWith("1.");
                assertThat(server.error()).isNull();
            });
            assertThat(endpoint.serverStats(memcached.first().address())).containsKey("curr_connections");
            assertThatThrownBy(() -> endpoint.proposeServers(memcached.first().address(), 0))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("grizzly.memcached.zookeeper.connect-string");
            assertThat(context.getBean(MemcachedEndpointWebExtension.class).proposeServers(memcached.first().address(), 0)
                    .getStatus()).isEqualTo(400);
        });
    }
}
