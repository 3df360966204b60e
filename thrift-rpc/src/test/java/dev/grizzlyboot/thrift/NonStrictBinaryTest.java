package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;

/**
 * Binary-protocol messages in the old, unversioned form (a name length where the version would
 * be), which peers built with {@code strictWrite=false} send: libthrift's servers and clients read
 * them with their default binary protocol ({@code strictRead=false}), so ours must too.
 */
class NonStrictBinaryTest {

    @Test
    void libthriftServerTakesUnversionedCalls() throws Exception {
        try (LibthriftServer server = LibthriftServer.start(new Calculator.Processor<>(new CalculatorHandler()))) {
            assertThat(unversionedAdd(server.port())).isEqualTo(42);
        }
    }

    @Test
    void ourServerTakesUnversionedCalls() throws Exception {
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).build().start()) {
            assertThat(unversionedAdd(server.port())).isEqualTo(42);
        }
    }

    @Test
    void ourClientTakesUnversionedReplies() throws Exception {
        try (LibthriftServer server = LibthriftServer.start(new Calculator.Processor<>(new CalculatorHandler()),
                args -> args.protocolFactory(new TBinaryProtocol.Factory(false, false)));
                ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port()).retries(0).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            assertThat(calculator.add(40, 2)).isEqualTo(42);
            assertThat(calculator.add(1, 2)).isEqualTo(3);
        }
    }

    private static int unversionedAdd(int port) throws Exception {
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", port, 5000));
        transport.open();
        try {
            Calculator.Client client = new Calculator.Client(new TBinaryProtocol(transport, false, false));
            return client.add(40, 2);
        } finally {
            transport.close();
        }
    }
}
