package dev.grizzlyboot.autoconfigure.thrift.server;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.TProcessor;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Builds the server's processor from the {@link ThriftService} beans: each bean's generated
 * {@code Service.Iface} names the generated {@code Service.Processor} that serves it. One handler
 * gives its processor; several give a {@link TMultiplexedProcessor}. Stateless; used once at start-up.
 */
final class ThriftHandlers {

    private ThriftHandlers() {
    }

    /** The processor serving every {@code @ThriftService} bean of the factory. */
    static TProcessor processor(ListableBeanFactory beans) {
        Map<String, TProcessor> byServiceName = processorsByServiceName(beans);
        if (byServiceName.size() == 1) {
            return byServiceName.values().iterator().next();
        }
        TMultiplexedProcessor multiplexed = new TMultiplexedProcessor();
        byServiceName.forEach(multiplexed::registerProcessor);
        return multiplexed;
    }

    /** The processor of each handler, keyed by the name it is registered under when multiplexed. */
    private static Map<String, TProcessor> processorsByServiceName(ListableBeanFactory beans) {
        Map<String, TProcessor> byServiceName = new LinkedHashMap<>();
        for (String beanName : beans.getBeanNamesForAnnotation(ThriftService.class)) {
            Object handler = beans.getBean(beanName);
            Class<?> iface = generatedIface(handler, beanName);
            ThriftService annotation = beans.findAnnotationOnBean(beanName, ThriftService.class);
            String serviceName = annotation == null || annotation.value().isEmpty()
                    ? iface.getEnclosingClass().getSimpleName() : annotation.value();
            if (byServiceName.putIfAbsent(serviceName, processorOf(iface, handler)) != null) {
                throw new IllegalStateException("Two @ThriftService beans would be registered as service '"
                        + serviceName + "' (the second is '" + beanName + "'); name one with @ThriftService(\"...\")");
            }
        }
        return byServiceName;
    }

    /** The handler's most specific generated {@code Iface}: {@code Calculator.Iface}, not the {@code SharedService.Iface} it extends. */
    private static Class<?> generatedIface(Object handler, String beanName) {
        List<Class<?>> candidates = new ArrayList<>();
        for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(handler.getClass())) {
            if (type.getSimpleName().equals("Iface") && type.getEnclosingClass() != null && processorClass(type) != null) {
                candidates.add(type);
            }
        }
        candidates.removeIf(type -> candidates.stream().anyMatch(other -> other != type && type.isAssignableFrom(other)));
        if (candidates.size() != 1) {
            throw new IllegalStateException("@ThriftService bean '" + beanName + "' must implement exactly one generated "
                    + "Thrift Service.Iface (with its Service.Processor next to it), found " + candidates);
        }
        return candidates.get(0);
    }

    private static TProcessor processorOf(Class<?> iface, Object handler) {
        try {
            return (TProcessor) processorClass(iface).getConstructor(iface).newInstance(handler);
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
            throw new IllegalStateException("Cannot create " + processorClass(iface).getName() + " for " + iface.getName(), e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Creating the processor for " + iface.getName() + " failed", e.getCause());
        }
    }

    private static Class<?> processorClass(Class<?> iface) {
        String name = iface.getEnclosingClass().getName() + "$Processor";
        try {
            Class<?> processor = ClassUtils.forName(name, iface.getClassLoader());
            return TProcessor.class.isAssignableFrom(processor) ? processor : null;
        } catch (ClassNotFoundException e) {
            return null;
        }
    }
}
