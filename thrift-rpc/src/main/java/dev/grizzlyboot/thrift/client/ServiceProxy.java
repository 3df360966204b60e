package dev.grizzlyboot.thrift.client;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.function.Function;

import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.protocol.TProtocol;

/**
 * The invocation handler behind a typed proxy: each call runs the same method on the generated
 * {@code Client} built on a borrowed connection's protocol (wrapped for multiplexing when a service
 * name is set), which the connection keeps for this proxy's later calls. Holds no per-call state,
 * so one proxy serves any number of threads.
 */
final class ServiceProxy implements InvocationHandler {
    private final Class<?> iface;
    private final Constructor<?> clientConstructor;
    private final String serviceName;
    private final Map<String, CallOptions> options;
    private final CallRunner runner;
    private final Function<TProtocol, Object> clientFactory = this::newClient;

    ServiceProxy(Class<?> iface, Constructor<?> clientConstructor, String serviceName,
                 Map<String, CallOptions> options, CallRunner runner) {
        this.iface = iface;
        this.clientConstructor = clientConstructor;
        this.serviceName = serviceName;
        this.options = Map.copyOf(options);
        this.runner = runner;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return objectMethod(proxy, method, args);
        }
        String name = method.getName();
        return runner.run(name, options.getOrDefault(name, CallOptions.DEFAULT), connection -> {
            try {
                return method.invoke(connection.client(this, clientFactory), args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    private Object newClient(TProtocol protocol) {
        TProtocol wire = serviceName == null ? protocol : new TMultiplexedProtocol(protocol, serviceName);
        try {
            return clientConstructor.newInstance(wire);
        } catch (ReflectiveOperationException e) {
            // The constructor was checked when the proxy was built; a generated one only stores the protocol.
            throw new IllegalStateException("cannot create " + clientConstructor.getDeclaringClass().getName(), e);
        }
    }

    private Object objectMethod(Object proxy, Method method, Object[] args) {
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            default:
                return "Thrift proxy for " + iface.getName() + (serviceName == null ? "" : " (service " + serviceName + ")");
        }
    }
}
