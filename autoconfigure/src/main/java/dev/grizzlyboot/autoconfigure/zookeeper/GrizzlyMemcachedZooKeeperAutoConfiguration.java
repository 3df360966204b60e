package dev.grizzlyboot.autoconfigure.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.grizzlyboot.autoconfigure.memcached.GrizzlyMemcachedAutoConfiguration;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Keeps the {@link MemcachedClient} bean's server list in step with every other application of the
 * same cluster through ZooKeeper, when {@code grizzly.memcached.zookeeper.connect-string} is set.
 * The list committed in ZooKeeper wins over {@code grizzly.memcached.servers}, which only seeds a
 * cluster that has no list yet. A {@link CuratorFramework} bean of the application is used (and
 * left open); otherwise one is created from the properties and closed with the context;
 * {@link ZooKeeperServerListSyncBuilderCustomizer} beans adjust the sync's builder. Spring calls it
 * once, at start-up; the beans it makes are thread-safe.
 */
@AutoConfiguration(after = GrizzlyMemcachedAutoConfiguration.class)
@ConditionalOnClass({ ZooKeeperServerListSync.class, CuratorFramework.class })
@ConditionalOnBean(MemcachedClient.class)
@ConditionalOnProperty(prefix = "grizzly.memcached.zookeeper", name = "connect-string")
@EnableConfigurationProperties(GrizzlyMemcachedZooKeeperProperties.class)
public final class GrizzlyMemcachedZooKeeperAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    CuratorFramework memcachedZooKeeperCurator(GrizzlyMemcachedZooKeeperProperties properties) {
        if (properties.getPrepareTimeout().compareTo(properties.getSessionTimeout()) <= 0) {
            throw new IllegalArgumentException("grizzly.memcached.zookeeper.prepare-timeout must be longer than "
                    + "session-timeout, or a crashed member aborts every change it was part of");
        }
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(properties.getConnectString())
                .sessionTimeoutMs(Math.toIntExact(properties.getSessionTimeout().toMillis()))
                .connectionTimeoutMs(Math.toIntExact(properties.getConnectionTimeout().toMillis()))
                .retryPolicy(new ExponentialBackoffRetry(100, 3, 1000));
        GrizzlyMemcachedZooKeeperProperties.Auth auth = properties.getAuth();
        if (auth.getCredentials() != null) {
            builder.authorization(auth.getScheme(), auth.getCredentials().getBytes(StandardCharsets.UTF_8))
                    .aclProvider(new CreatorOnlyAcl());
        }
        CuratorFramework curator = builder.build();
        curator.start();
        return curator;
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    ZooKeeperServerListSync memcachedServerListSync(MemcachedClient client, ObjectProvider<CuratorFramework> curator,
            GrizzlyMemcachedZooKeeperProperties properties, Environment environment,
            ObjectProvider<ZooKeeperServerListSyncBuilderCustomizer> customizers) {
        ZooKeeperServerListSync.Builder builder = ZooKeeperServerListSync.builder()
                .curator(curator.getObject())
                .rootPath(properties.getRoot())
                .clusterName(properties.getCluster())
                .memberId(properties.getMemberId() != null ? properties.getMemberId() : MemberIds.next(environment))
                .commitDelay(properties.getCommitDelay())
                .prepareTimeout(properties.getPrepareTimeout())
                .sessionTimeout(properties.getSessionTimeout())
                .connectionTimeout(properties.getConnectionTimeout());
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.start(client);
    }

    /** Nodes the sync creates are open to the identity that created them only (the shared credentials). */
    private static final class CreatorOnlyAcl implements ACLProvider {

        @Override
        public List<ACL> getDefaultAcl() {
            return ZooDefs.Ids.CREATOR_ALL_ACL;
        }

        @Override
        public List<ACL> getAclForPath(String path) {
            return ZooDefs.Ids.CREATOR_ALL_ACL;
        }
    }
}
