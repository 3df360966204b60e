package dev.grizzlyboot.autoconfigure.memcached.endpoint;

import java.util.Map;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

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
    @SuppressWarnings("unchecked")
    void aServerThatDoesNotAnswerIs503WithItsErrorAndTheReadShowsTheError() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=memcached",
                "grizzly.memcached.operation-timeout=300ms").run(context -> {
            MemcachedEndpointWebExtension web = context.getBean(MemcachedEndpointWebExtension.class);
            assertThat(web.serverStats(memcached.first().address()).getStatus()).isEqualTo(200);
            memcached.first().pause();
            try {
                WebEndpointResponse<Object> stats = web.serverStats(memcached.first().address());
                assertThat(stats.getStatus()).isEqualTo(503);
                assertThat((Map<String, Object>) stats.getBody()).containsEntry("server", memcached.first().address()).containsKey("error");
                assertThat(context.getBean(MemcachedEndpoint.class).memcached().servers()).singleElement()
                        .satisfies(server -> assertThat(server.error()).isNotNull());
                assertThat(web.serverStats("not a server:x").getStatus()).isEqualTo(400);
            } finally {
                memcached.first().resume();
            }
        });
    }

    /** An application's own {@code MemcachedEndpoint} bean replaces ours; the web extension serves it. */
    @Test
    void backsOffForTheApplicationsOwnEndpoint() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=memcached")
                .withUserConfiguration(OwnEndpoint.class)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(MemcachedEndpoint.class)
                            .hasSingleBean(MemcachedEndpointWebExtension.class);
                    assertThat(context.getBeansOfType(MemcachedEndpoint.class)).containsOnlyKeys("ownEndpoint");
                });
    }

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

    @Configuration(proxyBeanMethods = false)
    static class OwnEndpoint {

        @Bean
        MemcachedEndpoint ownEndpoint(MemcachedClient client) {
            return new MemcachedEndpoint(client, null);
        }
    }
}
