package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.InvalidOperation;
import dev.grizzlyboot.thrift.tutorial.Operation;
import dev.grizzlyboot.thrift.tutorial.Work;
import dev.grizzlyboot.thrift.tutorial.shared.SharedStruct;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Handlers that fail in every way a handler can, and a call to a service the multiplexed processor
 * does not know, through libthrift's framed socket client: what the client gets, and whether the
 * same connection serves its next call, must be what libthrift's {@code TThreadPoolServer} gives
 * with the same processor, on every I/O strategy. Each case follows a run of calls on its
 * connection, so that with the connection-reader strategy a worker holding the connection runs it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HandlerFailureDifferentialTest {
    private static final int THROWS_ERROR = 13;
    private static final int THROWS_RUNTIME_EXCEPTION = 14;
    private static final int THROWS_APPLICATION_EXCEPTION = 15;
    private static final int THROWS_TRANSPORT_EXCEPTION = 16;
    /** Long against a closed connection's answer, so that waiting it out shows as TIMED_OUT. */
    private static final int SOCKET_TIMEOUT_MILLIS = 5000;

    private List<String> oracle;

    @BeforeAll
    void askLibthrift() throws Exception {
        try (LibthriftServer server = LibthriftServer.start(processor(), args -> args.minWorkerThreads(2).maxWorkerThreads(8))) {
            oracle = outcomes(server.port());
        }
    }

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void ourServerAnswersAsLibthriftDoes(IoStrategy strategy) throws Exception {
        try (ThriftServer server = ThriftServer.builder(processor()).host("127.0.0.1").port(0)
                .ioStrategy(strategy).build().start()) {
            assertThat(outcomes(server.port())).isEqualTo(oracle);
        }
    }

    /** Each case on a connection of its own: what it got, then what the same connection's next call got. */
    private static List<String> outcomes(int port) throws Exception {
        List<String> seen = new ArrayList<>();
        for (int failing : new int[] {THROWS_ERROR, THROWS_RUNTIME_EXCEPTION, THROWS_APPLICATION_EXCEPTION,
                THROWS_TRANSPORT_EXCEPTION}) {
            seen.add(onItsOwnConnection(port, "Calculator", "add(" + failing + ")", client -> client.add(failing, 0)));
        }
        seen.add(onItsOwnConnection(port, "Calculator", "divide by zero",
                client -> client.calculate(1, new Work(1, 0, Operation.DIVIDE))));
        seen.add(onItsOwnConnection(port, "Unregistered", "unknown service", client -> client.add(1, 2)));
        return seen;
    }

    private static String onItsOwnConnection(int port, String service, String name, Call call) throws Exception {
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", port, SOCKET_TIMEOUT_MILLIS));
        transport.open();
        try {
            TBinaryProtocol wire = new TBinaryProtocol(transport);
            Calculator.Client warm = new Calculator.Client(new TMultiplexedProtocol(wire, "Calculator"));
            for (int i = 0; i < 50; i++) {
                assertThat(warm.add(100, i)).isEqualTo(100 + i);
            }
            Calculator.Client client = new Calculator.Client(new TMultiplexedProtocol(wire, service));
            return name + ": " + outcome(() -> call.on(client)) + ", then: " + outcome(() -> warm.add(2, 3));
        } finally {
            transport.close();
        }
    }

    private static String outcome(Call.Returning call) {
        try {
            return "returned " + call.run();
        } catch (TApplicationException e) {
            return "TApplicationException type " + e.getType() + " '" + e.getMessage() + "'";
        } catch (TTransportException e) {
            return "TTransportException type " + e.getType();
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }

    private static TMultiplexedProcessor processor() {
        TMultiplexedProcessor processor = new TMultiplexedProcessor();
        processor.registerProcessor("Calculator", new Calculator.Processor<>(new FailingCalculator()));
        return processor;
    }

    /** A call made with a libthrift client. */
    private interface Call {
        Object on(Calculator.Client client) throws Exception;

        /** A call bound to its client. */
        interface Returning {
            Object run() throws Exception;
        }
    }

    /** The tutorial's calculator, whose {@code add} fails as its first argument says. */
    private static final class FailingCalculator implements Calculator.Iface {
        private final CalculatorHandler calculator = new CalculatorHandler();

        @Override
        public void ping() {
            calculator.ping();
        }

        @Override
        public int add(int num1, int num2) throws TException {
            switch (num1) {
                case THROWS_ERROR -> throw new AssertionError("a handler's Error");
                case THROWS_RUNTIME_EXCEPTION -> throw new IllegalStateException("an undeclared exception");
                case THROWS_APPLICATION_EXCEPTION ->
                        throw new TApplicationException(TApplicationException.INVALID_TRANSFORM, "thrown by the handler");
                case THROWS_TRANSPORT_EXCEPTION -> throw new TTransportException("a downstream call failed");
                default -> {
                    return calculator.add(num1, num2);
                }
            }
        }

        @Override
        public int calculate(int logid, Work work) throws InvalidOperation {
            return calculator.calculate(logid, work);
        }

        @Override
        public ByteBuffer echo(ByteBuffer payload) {
            return calculator.echo(payload);
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
}
