package dev.grizzlyboot.autoconfigure.thrift.client;

import java.util.Map;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

/**
 * Registers one bean per entry of {@code grizzly.thrift.clients}: named like the entry, typed as
 * the service's generated {@code Iface} (so injection by type and {@code @Qualifier("<name>")}
 * both work), and created by {@link ThriftClients}. Only the entries' names and services are read
 * here, before any bean exists; the rest is bound when the client is built. Runs once, while the
 * configuration classes are processed.
 */
final class ThriftClientBeanRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanClassLoaderAware {
    /** The attribute that marks a client bean's definition with its service's {@code Iface}. */
    static final String SERVICE_INTERFACE = ThriftClientBeanRegistrar.class.getName() + ".serviceInterface";

    private Environment environment;
    private ClassLoader classLoader;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        Map<String, ThriftClientProperties> clients = Binder.get(environment)
                .bind("grizzly.thrift.clients", Bindable.mapOf(String.class, ThriftClientProperties.class))
                .orElse(Map.of());
        clients.forEach((name, properties) -> registry.registerBeanDefinition(name,
                definition(name, iface(name, properties.getService()))));
    }

    /**
     * A factory method call, {@code thriftClients.proxy(name, iface)}, rather than a supplier: Spring AOT
     * writes such a definition out as code, where it cannot write out a lambda.
     */
    private static RootBeanDefinition definition(String name, Class<?> iface) {
        RootBeanDefinition definition = new RootBeanDefinition();
        definition.setFactoryBeanName(ThriftClients.BEAN_NAME);
        definition.setFactoryMethodName("proxy");
        definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
        definition.getConstructorArgumentValues().addIndexedArgumentValue(1, iface);
        definition.setTargetType(iface);
        definition.setAttribute(SERVICE_INTERFACE, iface);
        return definition;
    }

    /** {@code tutorial.Calculator} or {@code tutorial.Calculator.Iface} (or {@code $Iface}) to {@code Calculator.Iface}. */
    private Class<?> iface(String name, String service) {
        if (service == null || service.isBlank()) {
            throw new IllegalStateException("Thrift client '" + name + "' needs grizzly.thrift.clients." + name
                    + ".service, the generated service class such as tutorial.Calculator");
        }
        String serviceClass = service.endsWith(".Iface") || service.endsWith("$Iface")
                ? service.substring(0, service.length() - ".Iface".length()) : service;
        String ifaceName = serviceClass + "$Iface";
        try {
            return ClassUtils.forName(ifaceName, classLoader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException("Thrift client '" + name + "': service " + service
                    + " has no generated interface " + ifaceName + " on the class path", e);
        }
    }
}
