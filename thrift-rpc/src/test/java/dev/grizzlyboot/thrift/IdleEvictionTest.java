package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client closes pooled connections that stayed idle for its idle timeout, so a server's own
 * (longer) idle timeout never closes one under a call.
 */
class IdleEvictionTest {
    private ThriftServer server;
    private ThriftClient client;

    @BeforeEach
    void start() {
        // The server would keep idle connections for an hour: only the client can close them here.
        server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).idleTimeout(Duration.ofHours(1)).build().start();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void idleConnectionIsClosedByTheClientAndANewOneServesTheNextCall() throws Exception {
        client = ThriftClient.builder().server("127.0.0.1", server.port())
                .idleTimeout(Duration.ofMillis(200)).healthCheckInterval(Duration.ofMillis(50)).build();
        Calculator.Iface calculator = client.proxy(Calculator.Iface.class);

        assertThat(calculator.add(1, 1)).isEqualTo(2);
        assertThat(server.openConnections()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.openConnections() == 0);

        assertThat(calculator.add(2, 2)).isEqualTo(4);
        assertThat(server.openConnections()).isEqualTo(1);
    }

    @Test
    void zeroIdleTimeoutKeepsConnectionsOpen() throws Exception {
        client = ThriftClient.builder().server("127.0.0.1", server.port())
                .idleTimeout(Duration.ZERO).healthCheckInterval(Duration.ofMillis(50)).build();
        Calculator.Iface calculator = client.proxy(Calculator.Iface.class);

        assertThat(calculator.add(1, 1)).isEqualTo(2);
        // Many health-check rounds pass; the connection must survive all of them.
        await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                .until(() -> server.openConnections() == 1);
        assertThat(calculator.add(2, 2)).isEqualTo(4);
        assertThat(server.openConnections()).isEqualTo(1);
    }

    @Test
    void healthChecksNeverMakeACallerOpenAnotherConnection() throws Exception {
        // A check every millisecond reads the idle connection about a thousand times a second, so a
        // caller that finds it taken by the check (and opens a second one) shows up within the loop.
        client = ThriftClient.builder().server("127.0.0.1", server.port())
                .idleTimeout(Duration.ZERO).healthCheckInterval(Duration.ofMillis(1)).build();
        Calculator.Iface calculator = client.proxy(Calculator.Iface.class);

        long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        for (int i = 0; System.nanoTime() < end; i++) {
            assertThat(calculator.add(i, 1)).isEqualTo(i + 1);
        }
        assertThat(server.openConnections()).isEqualTo(1);
    }
}
