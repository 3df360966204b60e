package dev.grizzlyboot.autoconfigure.thrift.client;

import java.util.List;

import org.apache.thrift.protocol.TProtocol;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

/**
 * The native-image hints of each Thrift client bean, whose service is known only from the
 * properties read at build time: a JDK proxy of the service's {@code Iface}, its methods invoked
 * reflectively on the generated {@code Client}, that {@code Client(TProtocol)} constructor, and the
 * binding of the client's properties. Called by Spring AOT, once per bean, at build time.
 */
final class ThriftClientBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

    @Override
    public BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
        if (!(bean.getMergedBeanDefinition().getAttribute(ThriftClientBeanRegistrar.SERVICE_INTERFACE) instanceof Class<?> iface)) {
            return null;
        }
        return (generationContext, code) -> registerHints(generationContext.getRuntimeHints(), iface);
    }

    private static void registerHints(RuntimeHints hints, Class<?> iface) {
        hints.proxies().registerJdkProxy(iface);
        hints.reflection().registerType(iface, MemberCategory.INVOKE_PUBLIC_METHODS);
        Class<?> service = iface.getEnclosingClass();
        hints.reflection().registerType(service);
        hints.reflection().registerType(TypeReference.of(service.getName() + "$Client"), type -> type
                .withConstructor(List.of(TypeReference.of(TProtocol.class)), ExecutableMode.INVOKE));
        BindableRuntimeHintsRegistrar.forTypes(ThriftClientProperties.class).registerHints(hints);
    }
}
