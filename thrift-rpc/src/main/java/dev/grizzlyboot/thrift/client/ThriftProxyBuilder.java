package dev.grizzlyboot.thrift.client;

import java.lang.reflect.Constructor;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

import org.apache.thrift.TServiceClient;
import org.apache.thrift.protocol.TProtocol;

/**
 * Options for one typed proxy of a {@link ThriftClient}: the multiplexed service name and which
 * methods are safe to run twice. Not thread-safe; the proxy it builds is.
 *
 * @param <T> the generated {@code Iface} type
 */
public final class ThriftProxyBuilder<T> {
    private final Class<T> iface;
    private final CallRunner runner;
    private final Set<String> idempotentMethods = new HashSet<>();
    private String serviceName;

    ThriftProxyBuilder(Class<T> iface, CallRunner runner) {
        if (!iface.isInterface() || iface.getEnclosingClass() == null) {
            throw new IllegalArgumentException(iface.getName() + " is not a Thrift-generated Iface (Service.Iface)");
        }
        this.iface = iface;
        this.runner = runner;
    }

    /**
     * Calls the service registered under this name in a server's {@code TMultiplexedProcessor}.
     *
     * @param serviceName the name given to {@code registerProcessor}
     * @return this builder
     */
    public ThriftProxyBuilder<T> serviceName(String serviceName) {
        this.serviceName = Objects.requireNonNull(serviceName, "serviceName");
        return this;
    }

    /**
     * Marks methods as safe to run more than once, so a transport failure after the request was
     * sent is retried on the next server. Other methods are retried only if the request never left.
     *
     * @param methodNames names of methods of the {@code Iface}
     * @return this builder
     * @throws IllegalArgumentException if a name is not a method of the {@code Iface}
     */
    public ThriftProxyBuilder<T> idempotent(String... methodNames) {
        for (String name : methodNames) {
            if (Arrays.stream(iface.getMethods()).noneMatch(m -> m.getName().equals(name))) {
                throw new IllegalArgumentException(iface.getName() + " has no method " + name);
            }
            idempotentMethods.add(name);
        }
        return this;
    }

    /**
     * Creates the proxy.
     *
     * @return a thread-safe implementation of the {@code Iface} that calls the servers
     */
    public T build() {
        ServiceProxy handler = new ServiceProxy(iface, clientConstructor(), serviceName, idempotentMethods, runner);
        return iface.cast(Proxy.newProxyInstance(iface.getClassLoader(), new Class<?>[] {iface}, handler));
    }

    /** Finds the generated {@code Service.Client(TProtocol)} next to {@code Service.Iface}. */
    private Constructor<?> clientConstructor() {
        String clientName = iface.getEnclosingClass().getName() + "$Client";
        try {
            Class<?> client = Class.forName(clientName, false, iface.getClassLoader());
            if (!iface.isAssignableFrom(client) || !TServiceClient.class.isAssignableFrom(client)) {
                throw new IllegalArgumentException(clientName + " does not implement " + iface.getName());
            }
            return client.getConstructor(TProtocol.class);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            throw new IllegalArgumentException(iface.getName()
                    + " is not a Thrift-generated Iface: no " + clientName + "(TProtocol)", e);
        }
    }
}
