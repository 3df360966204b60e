package dev.grizzlyboot.autoconfigure.thrift.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.grizzlyboot.thrift.CalculatorHandler;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.Operation;
import dev.grizzlyboot.thrift.tutorial.Work;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A whole application (every auto-configuration of the starter) with one {@code @ThriftService}
 * bean, called over a socket by libthrift's own blocking client: the server is really there, on
 * the port the environment publishes.
 */
@SpringBootTest(classes = ThriftServerApplicationTests.Application.class,
        properties = {"grizzly.thrift.server.host=127.0.0.1", "grizzly.thrift.server.port=0"})
class ThriftServerApplicationTests {

    @Value("${local.grizzly.thrift.port}")
    int port;

    @Autowired
    CalculatorHandler handler;

    @Test
    void libthriftClientCallsTheHandlerOverASocket() throws Exception {
        try (TSocket socket = new TSocket("127.0.0.1", port, 5000)) {
            socket.open();
            Calculator.Client client = new Calculator.Client(new TBinaryProtocol(new TFramedTransport(socket)));
            assertThat(client.add(20, 22)).isEqualTo(42);
            assertThat(client.calculate(1, new Work(6, 7, Operation.MULTIPLY))).isEqualTo(42);
        }
        assertThat(handler.calls).hasValue(2);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Application {
        @Bean
        @ThriftService
        CalculatorHandler calculatorHandler() {
            return new CalculatorHandler();
        }
    }
}
