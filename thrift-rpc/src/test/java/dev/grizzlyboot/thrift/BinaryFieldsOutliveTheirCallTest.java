package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.InvalidOperation;
import dev.grizzlyboot.thrift.tutorial.Work;
import dev.grizzlyboot.thrift.tutorial.shared.SharedStruct;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A binary field keeps its bytes after its call, as with libthrift's framed transports, which read
 * every frame into a new array: a result our client returned is not overwritten by the next reply
 * on the same pooled connection, and an argument a handler keeps is not overwritten by the
 * connection's next request, whatever the server's IO strategy.
 */
class BinaryFieldsOutliveTheirCallTest {

    private static final ByteBuffer FIRST = filled(1_000, (byte) 1);
    private static final ByteBuffer SECOND = filled(1_000, (byte) 2);
    private static final int CALLS = 50;

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void aResultOfOurClientKeepsItsBytesAfterTheNextCallOnItsConnection(ThriftProtocol protocol) throws Exception {
        try (LibthriftServer server = LibthriftServer.start(new Calculator.Processor<>(new CalculatorHandler()),
                args -> args.protocolFactory(protocol.factory()));
                ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port())
                        .protocol(protocol).minConnections(1).maxConnections(1).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            ByteBuffer first = calculator.echo(FIRST.duplicate());
            ByteBuffer second = calculator.echo(SECOND.duplicate());
            assertThat(second).isEqualTo(SECOND);
            assertThat(first).as("the first result after the second call").isEqualTo(FIRST);
        }
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("dev.grizzlyboot.thrift.TutorialCallsTest#strategiesAndProtocols")
    void anArgumentAHandlerKeepsKeepsItsBytesAfterTheNextRequest(IoStrategy strategy, ThriftProtocol protocol) throws Exception {
        List<ByteBuffer> kept = new CopyOnWriteArrayList<>();
        Calculator.Iface handler = new KeepingHandler(kept);
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).protocol(protocol).build().start()) {
            TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", server.port(), 5000));
            transport.open();
            try {
                Calculator.Client client = new Calculator.Client(protocol.factory().getProtocol(transport));
                // Enough calls in a row for a connection reader to take the connection and read its
                // requests in place (only the first calls are read by the selector thread).
                for (int i = 0; i < CALLS; i++) {
                    client.echo(filled(1_000, (byte) i));
                }
            } finally {
                transport.close();
            }
            assertThat(kept).hasSize(CALLS);
            for (int i = 0; i < CALLS; i++) {
                assertThat(kept.get(i)).as("argument %d after the calls that followed it", i).isEqualTo(filled(1_000, (byte) i));
            }
        }
    }

    /** The tutorial's calculator, keeping every payload {@code echo} is given. */
    private static final class KeepingHandler implements Calculator.Iface {
        private final CalculatorHandler calculator = new CalculatorHandler();
        private final List<ByteBuffer> kept;

        KeepingHandler(List<ByteBuffer> kept) {
            this.kept = kept;
        }

        @Override
        public ByteBuffer echo(ByteBuffer payload) {
            kept.add(payload);
            return payload;
        }

        @Override
        public void ping() {
            calculator.ping();
        }

        @Override
        public int add(int num1, int num2) {
            return calculator.add(num1, num2);
        }

        @Override
        public int calculate(int logid, Work w) throws InvalidOperation {
            return calculator.calculate(logid, w);
        }

        @Override
        public void zip() {
            calculator.zip();
        }

        @Override
        public SharedStruct getStruct(int key) {
            return calculator.getStruct(key);
        }
    }

    private static ByteBuffer filled(int size, byte value) {
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, value);
        return ByteBuffer.wrap(bytes);
    }
}
