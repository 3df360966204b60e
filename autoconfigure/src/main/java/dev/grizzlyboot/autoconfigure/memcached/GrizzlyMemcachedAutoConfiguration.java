package dev.grizzlyboot.autoconfigure.memcached;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.MemcachedClientBuilder;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ResourceLoader;

/**
 * Creates the {@link MemcachedClient} from {@link MemcachedConnectionDetails} (servers, SASL
 * login, SSL bundle) and the {@code grizzly.memcached.*} properties. Backs off when the
 * application defines its own client; a {@link MemcachedConnectionDetails} bean of the application
 * replaces the configured servers, login and bundle.
 * Spring calls it once, at start-up; the client it builds is thread-safe and closed with the context.
 */
@AutoConfiguration
@ConditionalOnClass(MemcachedClient.class)
@EnableConfigurationProperties(GrizzlyMemcachedProperties.class)
public final class GrizzlyMemcachedAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(MemcachedConnectionDetails.class)
    PropertiesMemcachedConnectionDetails memcachedConnectionDetails(GrizzlyMemcachedProperties properties,
            ObjectProvider<SslBundles> sslBundles) {
        return new PropertiesMemcachedConnectionDetails(properties, sslBundles.getIfAvailable());
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    MemcachedClient memcachedClient(GrizzlyMemcachedProperties properties, MemcachedConnectionDetails connectionDetails,
            ObjectProvider<MemcachedClientBuilderCustomizer> customizers, ObjectProvider<SslBundles> sslBundles,
            BeanFactory beanFactory, ResourceLoader resourceLoader) {
        MemcachedClientBuilder builder = MemcachedClient.builder()
                .serverAddresses(connectionDetails.getServers())
                .operationTimeout(properties.getOperationTimeout())
                .connectTimeout(properties.getConnectTimeout())
                .maxItemSize(Math.toIntExact(properties.getMaxItemSize().toBytes()))
                .ioStrategy(properties.getIoStrategy())
                .transcoder(TranscoderSettings.transcoder(properties.getTranscoder(), beanFactory, resourceLoader.getClassLoader()));
        if (properties.getIoThreads() != null) {
            builder.ioThreads(properties.getIoThreads());
        }
        if (properties.getWorkerThreads() != null) {
            builder.workerThreads(properties.getWorkerThreads());
        }
        if (properties.getCallerSpin() != null) {
            builder.callerSpin(properties.getCallerSpin());
        }
        if (properties.getTextBulkReads() != null) {
            builder.textBulkReads(properties.getTextBulkReads());
        }
        GrizzlyMemcachedProperties.Pool pool = properties.getPool();
        builder.connectionsPerServer(pool.getMinConnections(), pool.getMaxConnections())
                .pipelineDepth(pool.getPipelineDepth())
                .idleTimeout(pool.getIdleTimeout())
                .reconnectBackoff(pool.getReconnectBackoff(), pool.getMaxReconnectBackoff());
        GrizzlyMemcachedProperties.Cluster cluster = properties.getCluster();
        builder.failover(cluster.isFailover())
                .failureThreshold(cluster.getFailureThreshold())
                .healthCheckInterval(cluster.getHealthCheckInterval(), cluster.getMaxHealthCheckInterval())
                .replicas(cluster.getReplicas())
                .ketamaNaming(cluster.getKetamaNaming());
        cluster.getWeights().forEach(builder::weight);
        GrizzlyMemcachedProperties.FailbackFlush failbackFlush = cluster.getFailbackFlush();
        if (failbackFlush.isEnabled()) {
            builder.failbackFlush(failbackFlush.getMinimumOutage());
        } else {
            builder.failbackFlush(false);
        }
        GrizzlyMemcachedProperties.NearCache nearCache = properties.getNearCache();
        if (nearCache.isEnabled()) {
            builder.nearCache(nearCache.getTtl(), nearCache.getMaxEntries());
        }
        security(builder, properties, connectionDetails, sslBundles);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    private static void security(MemcachedClientBuilder builder, GrizzlyMemcachedProperties properties,
            MemcachedConnectionDetails connectionDetails, ObjectProvider<SslBundles> sslBundles) {
        String username = connectionDetails.getUsername();
        if (username != null) {
            if (connectionDetails.getPassword() == null) {
                throw new IllegalStateException("memcached user '" + username + "' has no password: set grizzly.memcached.password");
            }
            builder.authentication(username, connectionDetails.getPassword());
        }
        SslBundle bundle = connectionDetails.getSslBundle();
        if (bundle != null) {
            BundleSslContext context = new BundleSslContext(bundle);
            String bundleName = properties.getSsl().getBundle();
            // Only a bundle named in our properties is known to be the one the details returned.
            if (connectionDetails instanceof PropertiesMemcachedConnectionDetails && bundleName != null) {
                sslBundles.getObject().addBundleUpdateHandler(bundleName, context::update);
            }
            builder.tls(context, properties.getSsl().isVerifyHostname());
        }
    }
}
