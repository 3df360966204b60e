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
                assertThat(health(context).getDetails()).containsEntry("connected", false);
            } finally {
                zookeeper.restart();
            }
            await().until(() -> health(context).getStatus().equals(Status.UP));
        });
    }

    @Test
    void switchedOffByTheManagementProperty() {
        runner.withPropertyValues("grizzly.memcached.zookeeper.cluster=off", "management.health.memcached-zookeeper.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("memcachedZookeeperHealthContributor"));
    }

    private static Health health(AssertableApplicationContext context) {
        return ((HealthIndicator) context.getBean("memcachedZookeeperHealthContributor")).health(true);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> barrier(Health health) {
        return (Map<String, Object>) health.getDetails().get("barrier");
    }
}
