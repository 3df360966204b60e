package dev.grizzlyboot.autoconfigure.thrift.server;

import java.time.Duration;

import dev.grizzlyboot.autoconfigure.internal.BundleSslContexts;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.server.ThriftServerBuilder;
import org.apache.thrift.TProcessor;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.task.VirtualThreadTaskExecutor;
import org.springframework.core.task.support.ExecutorServiceAdapter;

/**
 * Serves the application's {@link ThriftService} beans with a {@link ThriftServer} configured by
 * {@code grizzly.thrift.server.*}, started after the context is refreshed and stopped gracefully
 * with it. An application {@link TProcessor} bean is served in place of the handlers; an
 * application {@link ThriftServer} bean makes this back off entirely (the application starts it).
 * Spring calls it once, at start-up.
 */
@AutoConfiguration(after = SslAutoConfiguration.class)
@ConditionalOnClass(ThriftServer.class)
@ConditionalOnBooleanProperty(name = "grizzly.thrift.server.enabled", matchIfMissing = true)
@Conditional(OnThriftHandlersCondition.class)
@ConditionalOnMissingBean(ThriftServer.class)
@EnableConfigurationProperties(ThriftServerProperties.class)
public final class ThriftServerAutoConfiguration {

    private static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    @Bean
    @ConditionalOnMissingBean(TProcessor.class)
    TProcessor thriftProcessor(ListableBeanFactory beans) {
        return ThriftHandlers.processor(beans);
    }

    @Bean
    ThriftServer thriftServer(TProcessor thriftProcessor, ThriftServerProperties properties,
            ObjectProvider<SslBundles> sslBundles, ObjectProvider<ThriftServerCustomizer> customizers,
            ConfigurableEnvironment environment) {
        ThriftServerBuilder builder = ThriftServer.builder(thriftProcessor)
                .host(properties.getHost())
                .port(properties.getPort())
                .ioStrategy(properties.getIoStrategy())
                .protocol(properties.getProtocol())
                .workerThreads(properties.getWorkerThreads())
                .maxFrameSize(Math.toIntExact(properties.getMaxFrameSize().toBytes()))
                .idleTimeout(properties.getIdleTimeout());
        if (properties.getSelectorThreads() != null) {
            builder.selectorThreads(properties.getSelectorThreads());
        }
        ThriftServerProperties.Ssl ssl = properties.getSsl();
        if (ssl.getBundle() != null) {
            builder.tls(BundleSslContexts.create(sslBundles.getObject(), ssl.getBundle()),
                    ssl.getClientAuth() == ThriftServerProperties.ClientAuth.NEED);
        }
        if (properties.getIoStrategy() != IoStrategy.SAME_THREAD && Threading.VIRTUAL.isActive(environment)) {
            builder.workerExecutor(new ExecutorServiceAdapter(new VirtualThreadTaskExecutor("grizzlyboot-thrift-")));
        }
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    @Bean
    ThriftServerLifecycle thriftServerLifecycle(ThriftServer thriftServer, ThriftServerProperties properties,
            ConfigurableEnvironment environment) {
        Binder binder = Binder.get(environment);
        // An immediate shutdown is a graceful one with no time for running calls: the same stop path.
        Duration shutdownTimeout = shutdown(properties, binder) == ThriftServerProperties.Shutdown.IMMEDIATE
                ? Duration.ZERO
                : binder.bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class).orElse(DEFAULT_SHUTDOWN_TIMEOUT);
        return new ThriftServerLifecycle(thriftServer, environment, shutdownTimeout);
    }

    /**
     * Our own property first; otherwise server.shutdown, which an application that sets it to immediate
     * means for all its servers. Bound to our enum by name: Boot's Shutdown is in spring-boot-web-server,
     * which a Thrift-only application does not have.
     */
    private static ThriftServerProperties.Shutdown shutdown(ThriftServerProperties properties, Binder binder) {
        if (properties.getShutdown() != null) {
            return properties.getShutdown();
        }
        return binder.bind("server.shutdown", ThriftServerProperties.Shutdown.class)
                .orElse(ThriftServerProperties.Shutdown.GRACEFUL);
    }
}
