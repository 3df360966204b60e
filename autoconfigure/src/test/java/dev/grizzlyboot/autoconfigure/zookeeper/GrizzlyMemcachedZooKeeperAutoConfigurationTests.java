package dev.grizzlyboot.autoconfigure.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.grizzlyboot.autoconfigure.YamlFiles;
import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedMetricsAutoConfiguration;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.zookeeper.SyncState;
import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The ZooKeeper sync from {@code grizzly.memcached.zookeeper.*}, against a real ZooKeeper and real memcached servers. */
@ExtendWith(OutputCaptureExtension.class)
class GrizzlyMemcachedZooKeeperAutoConfigurationTests {

    @RegisterExtension
    static ZooKeeperExtension zookeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GrizzlyMemcachedAutoConfiguration.class,
                    GrizzlyMemcachedZooKeeperAutoConfiguration.class));

    @Test
    void noConnectStringNoSync() {
        runner.withPropertyValues("grizzly.memcached.servers=" + memcached.addressList()).run(context -> {
            assertThat(context).hasSingleBean(MemcachedClient.class);
            assertThat(context).doesNotHaveBean(ZooKeeperServerListSync.class);
            assertThat(context).doesNotHaveBean(CuratorFramework.class);
        });
    }

    @Test
    void configuredServersSeedAnEmptyClusterAndTheCommittedListWinsOverThem() {
        String first = memcached.get(0).address() + "," + memcached.get(1).address();
        zk("seeded").withPropertyValues("grizzly.memcached.servers=" + first).run(seeder -> {
            SyncState seeded = seeder.getBean(ZooKeeperServerListSync.class).state();
            assertThat(seeded.version()).isEqualTo(1);
            assertThat(seeded.servers()).containsExactly(memcached.get(0).address(), memcached.get(1).address());

            zk("seeded").withPropertyValues("grizzly.memcached.servers=" + memcached.get(2).address()).run(joiner -> {
                assertThat(joiner.getBean(ZooKeeperServerListSync.class).state().phase()).isEqualTo(SyncState.Phase.IN_SYNC);
                assertThat(joiner.getBean(MemcachedClient.class).servers()).containsExactly(
                        ServerAddress.parse(memcached.get(0).address()), ServerAddress.parse(memcached.get(1).address()));
            });
        });
    }

    @Test
    void designContractYamlBindsTheZooKeeperProperties() {
        new ApplicationContextRunner().withUserConfiguration(ZooKeeperProperties.class)
                .withInitializer(YamlFiles.load("design-contract.yml")).run(context -> {
                    GrizzlyMemcachedZooKeeperProperties properties = context.getBean(GrizzlyMemcachedZooKeeperProperties.class);
                    assertThat(properties.getConnectString()).isEqualTo("127.0.0.1:2181");
                    assertThat(properties.getCluster()).isEqualTo("myapp-cache");
                    assertThat(properties.getCommitDelay()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(properties.getAuth().getScheme()).isEqualTo("digest");
                    assertThat(properties.getAuth().getCredentials()).isEqualTo("app:secret");
                });
    }

    @Test
    void memberIdDefaultsToApplicationNameHostAndPid() {
        zk("ids").withPropertyValues("spring.application.name=orders").run(first ->
                zk("ids").withPropertyValues("spring.application.name=orders").run(second -> {
                    String firstId = first.getBean(ZooKeeperServerListSync.class).state().memberId();
                    String secondId = second.getBean(ZooKeeperServerListSync.class).state().memberId();
                    assertThat(firstId).startsWith("orders-").contains("-" + ProcessHandle.current().pid());
                    assertThat(secondId).startsWith("orders-").isNotEqualTo(firstId);
                }));
        zk("ids").withPropertyValues("grizzly.memcached.zookeeper.member-id=billing-1").run(context ->
                assertThat(context.getBean(ZooKeeperServerListSync.class).state().memberId()).isEqualTo("billing-1"));
    }

    @Test
    void aCuratorBeanOfTheApplicationIsUsedAndLeftOpen() {
        zk("user-curator").withUserConfiguration(UserCurator.class).run(context -> {
            assertThat(context).hasSingleBean(CuratorFramework.class);
            assertThat(context.getBean(ZooKeeperServerListSync.class).state().connected()).isTrue();
            assertThat(context.getBean(CuratorFramework.class).checkExists().forPath("/grizzly-memcached/user-curator/committed"))
                    .isNotNull();
        });
        assertThat(UserCurator.curator.getState()).isEqualTo(CuratorFrameworkState.STARTED);
        UserCurator.curator.close();
    }

    @Test
    void theCreatedCuratorIsClosedWithTheContext() {
        CuratorFramework[] created = new CuratorFramework[1];
        zk("owned").run(context -> created[0] = context.getBean(CuratorFramework.class));
        assertThat(created[0].getState()).isEqualTo(CuratorFrameworkState.STOPPED);
    }

    @Test
    void digestAuthMakesTheNodesCreatorOnly() {
        zk("secured").withPropertyValues("grizzly.memcached.zookeeper.root=/secured",
                "grizzly.memcached.zookeeper.auth.credentials=app:secret").run(context -> {
            assertThat(context.getBean(ZooKeeperServerListSync.class).state().version()).isEqualTo(1);
            try (CuratorFramework anonymous = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100));
                    CuratorFramework sameIdentity = CuratorFrameworkFactory.builder().connectString(zookeeper.connectString())
                            .retryPolicy(new RetryOneTime(100))
                            .authorization("digest", "app:secret".getBytes(StandardCharsets.UTF_8)).build()) {
                anonymous.start();
                sameIdentity.start();
                assertThatThrownBy(() -> anonymous.getData().forPath("/secured/secured/committed"))
                        .isInstanceOf(KeeperException.NoAuthException.class);
                List<ACL> acl = sameIdentity.getACL().forPath("/secured/secured/committed");
                assertThat(acl).singleElement().satisfies(entry -> {
                    assertThat(entry.getId().getScheme()).isEqualTo("digest");
                    assertThat(entry.getId().getId()).startsWith("app:");
                    assertThat(entry.getPerms()).isEqualTo(ZooDefs.Perms.ALL);
                });
                assertThat(new String(sameIdentity.getData().forPath("/secured/secured/committed"), StandardCharsets.UTF_8))
                        .contains("version=1");
            }
        });
    }

    @Test
    void prepareTimeoutMustOutlastTheSession() {
        zk("bad-timeouts").withPropertyValues("grizzly.memcached.zookeeper.prepare-timeout=5s",
                "grizzly.memcached.zookeeper.session-timeout=10s").run(context ->
                assertThat(context).getFailure().rootCause().hasMessageContaining("prepare-timeout must be longer"));
    }

    @Test
    void zooKeeperDownAtStartUpStartsOnTheConfiguredListAndJoinsLater(CapturedOutput output) throws Exception {
        zookeeper.stop();
        boolean[] restarted = { false };
        try {
            zk("late").withPropertyValues("grizzly.memcached.servers=" + memcached.get(2).address(),
                    "grizzly.memcached.zookeeper.connection-timeout=1s").run(context -> {
                assertThat(context).hasNotFailed();
                MemcachedClient client = context.getBean(MemcachedClient.class);
                ZooKeeperServerListSync sync = context.getBean(ZooKeeperServerListSync.class);
                assertThat(client.servers()).containsExactly(ServerAddress.parse(memcached.get(2).address()));
                assertThat(sync.state().phase()).isEqualTo(SyncState.Phase.JOINING);
                assertThat(output).contains("has not joined cluster late within PT1S; serving its own list until it does");
                client.blocking().set("served-before-zookeeper", "yes", Duration.ZERO);

                zookeeper.restart();
                restarted[0] = true;
                await().atMost(Duration.ofSeconds(30)).until(() -> sync.state().phase() == SyncState.Phase.IN_SYNC);
                assertThat(sync.state().version()).isEqualTo(1);
                assertThat(sync.state().servers()).containsExactly(memcached.get(2).address());
                assertThat(output).contains("seeded cluster late with its local servers");
            });
        } finally {
            if (!restarted[0]) {
                zookeeper.restart();
            }
        }
    }

    @Test
    void syncMetersReachTheApplicationsRegistryThroughTheCustomizer() {
        zk("metered").withConfiguration(AutoConfigurations.of(GrizzlyMemcachedMetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    assertThat(context.getBean(ZooKeeperServerListSync.class).state().phase()).isEqualTo(SyncState.Phase.IN_SYNC);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.find("memcached.zookeeper.switches").tag("cluster", "metered").counter()).isNotNull();
                    assertThat(registry.find("memcached.zookeeper.clock.offset").tag("cluster", "metered").gauge()).isNotNull();
                    assertThat(registry.find("memcached.client.requests").meters()).isNotEmpty();
                });
    }

    private ApplicationContextRunner zk(String cluster) {
        return runner.withPropertyValues("grizzly.memcached.zookeeper.connect-string=" + zookeeper.connectString(),
                "grizzly.memcached.zookeeper.cluster=" + cluster,
                "grizzly.memcached.servers=" + memcached.addressList(),
                "grizzly.memcached.zookeeper.session-timeout=4s",
                "grizzly.memcached.zookeeper.prepare-timeout=10s",
                "grizzly.memcached.zookeeper.commit-delay=300ms");
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(GrizzlyMemcachedZooKeeperProperties.class)
    static class ZooKeeperProperties {
    }

    @Configuration(proxyBeanMethods = false)
    static class UserCurator {

        static CuratorFramework curator;

        // Spring would close it by its inferred destroy method; the test checks that we do not.
        @Bean(destroyMethod = "")
        CuratorFramework userCurator() {
            curator = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100));
            curator.start();
            return curator;
        }
    }
}
