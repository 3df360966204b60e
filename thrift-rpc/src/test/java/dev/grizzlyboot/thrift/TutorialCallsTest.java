package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Random;
import java.util.stream.Stream;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.InvalidOperation;
import dev.grizzlyboot.thrift.tutorial.Operation;
import dev.grizzlyboot.thrift.tutorial.Work;
import dev.grizzlyboot.thrift.tutorial.shared.SharedService;
import org.apache.thrift.TMultiplexedProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TutorialCallsTest {

    static Stream<Arguments> strategiesAndProtocols() {
        return Stream.of(IoStrategy.values())
                .flatMap(strategy -> Stream.of(ThriftProtocol.values()).map(protocol -> Arguments.of(strategy, protocol)));
    }

    @Test
    void serverListsAreReadAsWrittenAndMalformedEntriesNamed() throws Exception {
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).build().start();
             ThriftClient client = ThriftClient.builder().servers(" 127.0.0.1:" + server.port() + " , ,").build();
             ThriftClient ipv6 = ThriftClient.builder().servers("[::1]:7911").build()) {
            assertThat(client.servers()).containsExactly("127.0.0.1:" + server.port());
            assertThat(client.proxy(Calculator.Iface.class).add(1, 2)).isEqualTo(3);
            assertThat(ipv6.servers()).containsExactly("[::1]:7911");
        }
        for (String bad : new String[] {"127.0.0.1", ":7911", "127.0.0.1:", "127.0.0.1:x", "127.0.0.1:0",
                "127.0.0.1:65536", "::1:7911", "[::1:7911", "[::1]x:7911", "[]:7911"}) {
            assertThatThrownBy(() -> ThriftClient.builder().servers("127.0.0.1:7911," + bad)).as("'%s'", bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'" + bad + "'");
        }
    }

    @ParameterizedTest(name = "{0} / {1}")
    @MethodSource("strategiesAndProtocols")
    void tutorialCallsWork(IoStrategy strategy, ThriftProtocol protocol) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).protocol(protocol).workerThreads(4).selectorThreads(1)
                .build().start();
             ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port()).protocol(protocol).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);

            calculator.ping();
            assertThat(calculator.add(1, 1)).isEqualTo(2);
            assertThat(calculator.calculate(1, new Work(15, 10, Operation.SUBTRACT))).isEqualTo(5);
            assertThat(calculator.getStruct(7).getValue()).isEqualTo("value 7");

            assertThatThrownBy(() -> calculator.calculate(2, new Work(1, 0, Operation.DIVIDE)))
                    .isExactlyInstanceOf(InvalidOperation.class)
                    .satisfies(e -> assertThat(((InvalidOperation) e).getWhy()).isEqualTo("Cannot divide by 0"));
            // The connection stays usable after a declared exception.
            assertThat(calculator.add(2, 3)).isEqualTo(5);

            byte[] payload = new byte[3000];
            new Random(42).nextBytes(payload);
            assertThat(calculator.echo(ByteBuffer.wrap(payload))).isEqualTo(ByteBuffer.wrap(payload));

            calculator.zip();
            await().atMost(Duration.ofSeconds(5)).until(() -> handler.zips.get() == 1);
            // A call after a oneway call still pairs with its own reply.
            assertThat(calculator.add(20, 22)).isEqualTo(42);
        }
    }

    @Test
    void multiplexedServicesAreReachedByName() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        TMultiplexedProcessor processor = new TMultiplexedProcessor();
        processor.registerProcessor("Calculator", new Calculator.Processor<>(handler));
        processor.registerProcessor("Shared", new SharedService.Processor<>(handler));
        try (ThriftServer server = ThriftServer.builder(processor).host("127.0.0.1").port(0).build().start();
             ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port()).build()) {
            Calculator.Iface calculator = client.proxyBuilder(Calculator.Iface.class).serviceName("Calculator").build();
            SharedService.Iface shared = client.proxyBuilder(SharedService.Iface.class).serviceName("Shared").build();
            Calculator.Iface unnamed = client.proxy(Calculator.Iface.class);

            assertThat(calculator.add(3, 4)).isEqualTo(7);
            assertThat(shared.getStruct(3).getKey()).isEqualTo(3);
            // Without a service name the multiplexed processor cannot route the call and, like
            // libthrift's servers, drops the connection.
            assertThatThrownBy(() -> unnamed.add(1, 2)).isInstanceOf(ThriftTransportFailureException.class);
            assertThat(calculator.add(5, 6)).isEqualTo(11);
        }
    }

    @Test
    void asyncProcessorIsRejectedWhenBuilding() {
        Calculator.AsyncProcessor<Calculator.AsyncIface> async = new Calculator.AsyncProcessor<>(
                new Calculator.AsyncIface() {
                    public void ping(org.apache.thrift.async.AsyncMethodCallback<Void> cb) { }
                    public void add(int a, int b, org.apache.thrift.async.AsyncMethodCallback<Integer> cb) { }
                    public void calculate(int l, Work w, org.apache.thrift.async.AsyncMethodCallback<Integer> cb) { }
                    public void echo(ByteBuffer p, org.apache.thrift.async.AsyncMethodCallback<ByteBuffer> cb) { }
                    public void zip(org.apache.thrift.async.AsyncMethodCallback<Void> cb) { }
                    public void getStruct(int k, org.apache.thrift.async.AsyncMethodCallback<dev.grizzlyboot.thrift.tutorial.shared.SharedStruct> cb) { }
                });
        assertThatThrownBy(() -> ThriftServer.builder(async).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("asynchronous processor");
    }
}
