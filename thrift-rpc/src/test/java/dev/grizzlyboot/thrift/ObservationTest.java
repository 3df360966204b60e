package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.observation.MicrometerCallObserver;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.InvalidOperation;
import dev.grizzlyboot.thrift.tutorial.Operation;
import dev.grizzlyboot.thrift.tutorial.Work;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.transport.TTransportException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every call a server handles and a client makes becomes a {@code thrift.server.requests} /
 * {@code thrift.client.requests} timer tagged with service or client, method and outcome, through
 * Micrometer observations with the meter handler.
 */
class ObservationTest {
    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final ObservationRegistry observations = ObservationRegistry.create();
    private ThriftServer server;
    private ThriftClient client;

    ObservationTest() {
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    }

    @AfterEach
    void close() {
        client.close();
        server.close();
    }

    @Test
    void everyOutcomeIsTaggedOnBothSides() throws Exception {
        server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler())).host("127.0.0.1").port(0)
                .callObserver(MicrometerCallObserver.server(observations)).build().start();
        client = ThriftClient.builder().server("127.0.0.1", server.port()).name("calc").retries(0)
                .callObserver(MicrometerCallObserver.client(observations)).build();
        Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
        dev.grizzlyboot.thrift.tutorial.newer.Calculator.Iface newer =
                client.proxy(dev.grizzlyboot.thrift.tutorial.newer.Calculator.Iface.class);

        assertThat(calculator.add(1, 2)).isEqualTo(3);
        assertThat(calculator.add(3, 4)).isEqualTo(7);
        assertThatThrownBy(() -> calculator.calculate(1, new Work(1, 0, Operation.DIVIDE)))
                .isInstanceOf(InvalidOperation.class);
        assertThatThrownBy(() -> newer.multiply(2, 3)).isInstanceOf(TApplicationException.class);

        assertThat(clientCount("add", "success")).isEqualTo(2);
        assertThat(clientCount("calculate", "declared_exception")).isEqualTo(1);
        assertThat(clientCount("multiply", "application_exception")).isEqualTo(1);
        // The server records a call once its reply is written, which may be just after the client has it.
        awaitServerCount("Calculator", "add", "success", 2);
        awaitServerCount("Calculator", "calculate", "declared_exception", 1);
        // A method the server does not have is not a tag value: clients could make up any number.
        awaitServerCount("Calculator", "unknown", "application_exception", 1);
    }

    @Test
    void readTimeoutIsTaggedTimeout() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        server = ThriftServer.builder(new Calculator.Processor<>(handler)).host("127.0.0.1").port(0)
                .callObserver(MicrometerCallObserver.server(observations)).build().start();
        client = ThriftClient.builder().server("127.0.0.1", server.port()).name("calc").retries(0)
                .readTimeout(Duration.ofMillis(100)).callObserver(MicrometerCallObserver.client(observations)).build();
        Calculator.Iface calculator = client.proxy(Calculator.Iface.class);

        // The handler answers only once released, after the call gave up: however late the caller
        // looks at its deadline, there is no reply yet.
        assertThatThrownBy(() -> calculator.add(CalculatorHandler.BLOCK, 0)).isInstanceOf(TTransportException.class);
        handler.release();

        assertThat(clientCount("add", "timeout")).isEqualTo(1);
        // The server finishes the call after the client gave up: for the server it succeeded.
        awaitServerCount("Calculator", "add", "success", 1);
    }

    @Test
    void multiplexedCallsAreTaggedWithTheRegisteredName() throws Exception {
        TMultiplexedProcessor multiplexed = new TMultiplexedProcessor();
        multiplexed.registerProcessor("calc-v1", new Calculator.Processor<>(new CalculatorHandler()));
        server = ThriftServer.builder(multiplexed).host("127.0.0.1").port(0)
                .callObserver(MicrometerCallObserver.server(observations)).build().start();
        client = ThriftClient.builder().server("127.0.0.1", server.port()).build();

        client.proxyBuilder(Calculator.Iface.class).serviceName("calc-v1").build().zip();
        assertThat(client.proxyBuilder(Calculator.Iface.class).serviceName("calc-v1").build().add(1, 1)).isEqualTo(2);

        awaitServerCount("calc-v1", "add", "success", 1);
        awaitServerCount("calc-v1", "zip", "success", 1);

        // A service the server does not have: it closes the connection, and records no made-up names.
        assertThatThrownBy(() -> client.proxyBuilder(Calculator.Iface.class).serviceName("no-such-service").build()
                .add(1, 1)).isInstanceOf(TTransportException.class);
        awaitServerCount("unknown", "unknown", "transport_error", 1);
    }

    private void awaitServerCount(String service, String method, String outcome, long count) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> serverCount(service, method, outcome) == count);
    }

    private long clientCount(String method, String outcome) {
        var timer = meters.find(MicrometerCallObserver.CLIENT_REQUESTS)
                .tags("client", "calc", "method", method, "outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }

    private long serverCount(String service, String method, String outcome) {
        var timer = meters.find(MicrometerCallObserver.SERVER_REQUESTS)
                .tags("service", service, "method", method, "outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }
}
