package dev.grizzlyboot.autoconfigure.memcached.health;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code memcached} health contributor against three real memcached processes. */
class MemcachedHealthContributorAutoConfigurationTests {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GrizzlyMemcachedAutoConfiguration.class,
                    MemcachedHealthContributorAutoConfiguration.class))
            .withPropertyValues("grizzly.memcached.servers=" + memcached.addressList(),
                    "grizzly.memcached.operation-timeout=300ms", "grizzly.memcached.connect-timeout=300ms");

    @AfterEach
    void heal() {
        memcached.servers().heal();
    }

    @Test
    void upWithEveryServersVersionWhenAllAnswer() {
        runner.run(context -> {
            Health health = health(context);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("answered", "3/3").containsEntry("degraded", false);
            assertThat(servers(health)).containsOnlyKeys(memcached.addresses());
            assertThat(servers(health).values()).allSatisfy(server -> assertThat(server)
                    .containsEntry("state", dev.grizzlyboot.memcached.cluster.ServerState.Status.ACTIVE)
                    .containsEntry("weight", 1).containsKey("since")
                    .hasEntrySatisfying("version", version -> assertThat((String) version).startsWith("1.")));
        });
    }

    @Test
    void aPartialOutageIsUpButDegradedWithTheFailedServersError() {
        runner.run(context -> {
            assertThat(health(context).getStatus()).isEqualTo(Status.UP);
            MemcachedProcess hung = memcached.get(1);
            hung.pause();
            Health health = health(context);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("answered", "2/3").containsEntry("degraded", true);
            assertThat(servers(health).get(hung.address())).containsKey("error").doesNotContainKey("version");
            assertThat(servers(health).get(memcached.get(0).address())).containsKey("version");
        });
    }

    @Test
    void downWhenNoServerAnswers() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        runner.withPropertyValues("grizzly.memcached.servers=127.0.0.1:" + closedPort).run(context -> {
            Health health = health(context);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("answered", "0/1");
            assertThat(servers(health).get("127.0.0.1:" + closedPort)).containsKey("error");
        });
    }

    @Test
    void serversRemovedFromTheConfiguredListAreReportedAsRemoved() {
        runner.run(context -> {
            context.getBean(MemcachedClient.class).setServers(List.of(memcached.get(0).address()));
            Health health = health(context);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("answered", "1/1");
            assertThat(servers(health).get(memcached.get(2).address())).isEqualTo(Map.of("state", "REMOVED"));
        });
    }

    @Test
    void switchedOffByTheManagementProperty() {
        runner.withPropertyValues("management.health.memcached.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("memcachedHealthContributor"));
    }

    /**
     * An application's own bean under either of Boot's names for this contributor replaces ours: with
     * {@code memcachedHealthIndicator} ours is not created, and {@code memcachedHealthContributor} is the
     * application's (ours would clash with it, or replace it).
     */
    @Test
    void backsOffForTheApplicationsOwnIndicatorUnderEitherName() {
        HealthIndicator own = () -> Health.outOfService().build();
        runner.withBean("memcachedHealthIndicator", HealthIndicator.class, () -> own).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean("memcachedHealthContributor");
            assertThat(context.getBeansOfType(HealthIndicator.class)).containsOnlyKeys("memcachedHealthIndicator");
        });
        runner.withBean("memcachedHealthContributor", HealthIndicator.class, () -> own).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean("memcachedHealthContributor")).isSameAs(own);
        });
    }

    private static Health health(AssertableApplicationContext context) {
        return ((HealthIndicator) context.getBean("memcachedHealthContributor")).health(true);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> servers(Health health) {
        return (Map<String, Map<String, Object>>) health.getDetails().get("servers");
    }
}
