package dev.grizzlyboot.thrift;

import java.util.function.Supplier;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;

/** A call from a client to a server, both built without observers; run in a class loader that has no Micrometer. */
final class WithoutMicrometer implements Supplier<Object> {

    @Override
    public Object get() {
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).build().start();
             ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port()).build()) {
            return client.proxy(Calculator.Iface.class).add(40, 2);
        } catch (org.apache.thrift.TException e) {
            throw new IllegalStateException(e);
        }
    }
}
