package dev.grizzlyboot.autoconfigure.memcached.health;

import java.util.Map;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.autoconfigure.zookeeper.GrizzlyMemcachedZooKeeperAutoConfiguration;
import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The {@code memcachedZookeeper} health contributor against a real ZooKeeper. */
class MemcachedZooKeeperHealthContributorAutoConfigurationTests {

    @RegisterExtension
    static ZooKeeperExtension zookeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GrizzlyMemcachedAutoConfiguration.class,
                    GrizzlyMemcachedZooKeeperAutoConfiguration.class, MemcachedZooKeeperHealthContributorAutoConfiguration.class))
            .withPropertyValues("grizzly.memcached.servers=" + memcached.get(0).address(),
                    "grizzly.memcached.zookeeper.connect-string=" + zookeeper.connectString(),
                    "grizzly.memcached.zookeeper.member-id=health", "grizzly.memcached.zookeeper.session-timeout=4s",
                    "grizzly.memcached.zookeeper.prepare-timeout=20s");

    @Test
    void upWhenRegisteredWithAnOpenBarrierShown() throws Exception {
        runner.withPropertyValues("grizzly.memcached.zookeeper.cluster=healthy").run(context -> {
            Health health = health(context);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("registered", true).containsEntry("connected", true)
                    .containsEntry("memberId", "health").containsEntry("version", 1L).containsEntry("committedVersion", 1L)
                    .containsEntry("members", 1).doesNotContainKey("barrier");
            assertThat((String) health.getDetails().get("sessionId")).startsWith("0x");

            try (CuratorFramework stuck = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100))) {
                stuck.start();
                stuck.create().withMode(CreateMode.EPHEMERAL).forPath("/grizzly-memcached/healthy/members/stuck");
                context.getBean(ZooKeeperServerListSync.class).proposeServers(memcached.addresses(), 1);
                await().until(() -> health(context).getDetails().get("barrier") != null
                        && "1/2".equals(barrier(health(context)).get("acks")));
                Map<String, Object> barrier = barrier(health(context));
                assertThat(barrier).containsEntry("version", 2L).containsEntry("decision", "pending").containsKey("prepareBy");
                assertThat(health(context).getStatus()).isEqualTo(Status.UP);
            }
        });
    }

    @Test
    void downWhileZooKeeperIsAway() {
        runner.withPropertyValues("grizzly.memcached.zookeeper.cluster=away").run(context -> {
            assertThat(health(context).getStatus()).isEqualTo(Status.UP);
            zookeeper.stop();
            try {
                await().until(() -> health(context).getStatus().equals(Status.DOWN));
                // Reported from the member's own state, without asking the ZooKeeper that is away.
                assertThat(health(context).getDetails()).containsEntry("connected", false).doesNotContainKey("error");
            } finally {
                zookeeper.restart();
            }
            await().until(() -> health(context).getStatus().equals(Status.UP));
        });
    }

    /**
     * Connected but not registered (its member node deleted behind its back, so a barrier would go on
     * without it) is {@code DOWN}, with {@code registered: false} and {@code connected: true}.
     */
    @Test
    void downWhenConnectedButNoLongerRegistered() throws Exception {
        runner.withPropertyValues("grizzly.memcached.zookeeper.cluster=unregistered").run(context -> {
            assertThat(health(context).getStatus()).isEqualTo(Status.UP);
            try (CuratorFramework other = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100))) {
                other.start();
                other.delete().forPath("/grizzly-memcached/unregistered/members/health");
            }
            await().until(() -> Boolean.FALSE.equals(health(context).getDetails().get("registered")));
            Health health = health(context);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("connected", true).containsEntry("registered", false);
        });
    }

    @Test
    void switchedOffByTheManagementProperty() {
        runner.withPropertyValues("grizzly.memcached.zookeeper.cluster=off", "management.health.memcached-zookeeper.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("memcachedZookeeperHealthContributor"));
    }

    /**
     * An application's own bean under either of Boot's names for this contributor replaces ours: with
     * {@code memcachedZookeeperHealthIndicator} ours is not created, and
     * {@code memcachedZookeeperHealthContributor} is the application's.
     */
    @Test
    void backsOffForTheApplicationsOwnIndicatorUnderEitherName() {
        HealthIndicator own = () -> Health.outOfService().build();
        ApplicationContextRunner backOff = runner.withPropertyValues("grizzly.memcached.zookeeper.cluster=own");
        backOff.withBean("memcachedZookeeperHealthIndicator", HealthIndicator.class, () -> own).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(ZooKeeperServerListSync.class)
                    .doesNotHaveBean("memcachedZookeeperHealthContributor");
            assertThat(context.getBeansOfType(HealthIndicator.class)).containsOnlyKeys("memcachedZookeeperHealthIndicator");
        });
        backOff.withBean("memcachedZookeeperHealthContributor", HealthIndicator.class, () -> own).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean("memcachedZookeeperHealthContributor")).isSameAs(own);
        });
    }

    private static Health health(AssertableApplicationContext context) {
        return ((HealthIndicator) context.getBean("memcachedZookeeperHealthContributor")).health(true);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> barrier(Health health) {
        return (Map<String, Object>) health.getDetails().get("barrier");
    }
}
