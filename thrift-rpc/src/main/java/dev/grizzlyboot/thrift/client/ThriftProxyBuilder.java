package dev.grizzlyboot.thrift.client;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.thrift.TServiceClient;
import org.apache.thrift.protocol.TProtocol;

/**
 * Options for one typed proxy of a {@link ThriftClient}: the multiplexed service name, which
 * methods are safe to run twice, and per-method read timeouts. Not thread-safe; the proxy it
 * builds is.
 *
 * @param <T> the generated {@code Iface} type
 */
public final class ThriftProxyBuilder<T> {
    private final Class<T> iface;
    private final CallRunner runner;
    private final Set<String> idempotentMethods = new HashSet<>();
    private final Map<String, Duration> readTimeouts = new HashMap<>();
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
            idempotentMethods.add(existingMethod(name));
        }
        return this;
    }

    /**
     * Sets how long each attempt of one method waits for its reply once the request is sent, in
     * place of the client's {@code readTimeout}. A timeout fails the call with a
     * {@link ThriftTransportFailureException} of type {@code TIMED_OUT} and counts towards taking
     * that server out of rotation, as with the client's read timeout.
     *
     * @param methodName  name of a method of the {@code Iface}
     * @param readTimeout a positive duration
     * @return this builder
     * @throws IllegalArgumentException if the name is not a method of the {@code Iface} or the duration is not positive
     */
    public ThriftProxyBuilder<T> readTimeout(String methodName, Duration readTimeout) {
        readTimeouts.put(existingMethod(methodName), ThriftClientBuilder.positive(readTimeout, "readTimeout"));
        return this;
    }

    /**
     * Creates the proxy.
     *
     * @return a thread-safe implementation of the {@code Iface} that calls the servers
     */
    public T build() {
        Map<String, CallOptions> options = new HashMap<>();
        for (Method method : iface.getMethods()) {
            String name = method.getName();
            if (idempotentMethods.contains(name) || readTimeouts.containsKey(name)) {
                options.put(name, new CallOptions(idempotentMethods.contains(name), readTimeouts.get(name)));
            }
        }
        ServiceProxy handler = new ServiceProxy(iface, clientConstructor(), serviceName, options, runner);
        return iface.cast(Proxy.newProxyInstance(iface.getClassLoader(), new Class<?>[] {iface}, handler));
    }

    private String existingMethod(String name) {
        if (Arrays.stream(iface.getMethods()).noneMatch(m -> m.getName().equals(name))) {
            throw new IllegalArgumentException(iface.getName() + " has no method " + name);
        }
        return name;
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
