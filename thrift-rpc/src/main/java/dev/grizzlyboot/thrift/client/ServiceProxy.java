package dev.grizzlyboot.thrift.client;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
    /**
     * Keyed by the {@code Method} objects the proxy class passes, the same ones on every call, so a
     * lookup is a hash and an identity check.
     */
    private final Map<Method, MethodCall> calls = new ConcurrentHashMap<>();

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
        MethodCall call = calls.get(method);
        if (call == null) {
            if (method.getDeclaringClass() == Object.class) {
                return objectMethod(proxy, method, args);
            }
            call = calls.computeIfAbsent(method, MethodCall::new);
        }
        return runner.run(call.name, call.options, call, args);
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

    /** One method of the {@code Iface} with its options, run on the generated client of a borrowed connection. */
    private final class MethodCall implements CallRunner.RemoteCall {
        final String name;
        final CallOptions options;
        private final Method method;

        MethodCall(Method method) {
            this.method = method;
            this.name = method.getName();
            this.options = ServiceProxy.this.options.getOrDefault(name, CallOptions.DEFAULT);
        }

        @Override
        public Object run(PooledConnection connection, Object[] args) throws Throwable {
            try {
                return method.invoke(connection.client(ServiceProxy.this, clientFactory), args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
