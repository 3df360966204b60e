package dev.grizzlyboot.autoconfigure.thrift.client;

import dev.grizzlyboot.thrift.client.ThriftClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * When {@code grizzly.thrift.clients} has entries, turns each into a bean of its service's {@code Iface}
 * type, backed by a pooled {@link ThriftClient} that {@link ThriftClients} closes with the context.
 * {@link ThriftClientCustomizer} beans adjust each client's builder. Spring calls it once, at
 * start-up.
 */
@AutoConfiguration(after = SslAutoConfiguration.class)
@ConditionalOnClass(ThriftClient.class)
@Conditional(OnThriftClientsCondition.class)
@EnableConfigurationProperties(ThriftClientsProperties.class)
@Import(ThriftClientBeanRegistrar.class)
public final class ThriftClientAutoConfiguration {

    @Bean(ThriftClients.BEAN_NAME)
    ThriftClients thriftClients(Environment environment, ObjectProvider<SslBundles> sslBundles,
            ObjectProvider<ThriftClientCustomizer> customizers) {
        return new ThriftClients(environment, sslBundles, customizers);
    }
}
