package dev.grizzlyboot.thrift;

import static dev.grizzlyboot.thrift.CalculatorHandler.BLOCK;
import static dev.grizzlyboot.thrift.CalculatorHandler.SLEEP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftClientBuilder;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/** Read timeouts: per-method overrides, discarding timed-out connections, and taking hung servers out of rotation. */
class ReadTimeoutTest {

    @Test
    void aPerMethodReadTimeoutReplacesTheClientsForThatMethodOnly() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = start(handler, 0);
             ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port())
                     .readTimeout(Duration.ofMillis(1500)).retries(0).failAfterTimeouts(100).build()) {
            String name = "127.0.0.1:" + server.port();
            Calculator.Iface plain = client.proxy(Calculator.Iface.class);
            Calculator.Iface longAdd = client.proxyBuilder(Calculator.Iface.class)
                    .readTimeout("add", Duration.ofSeconds(10)).build();
            Calculator.Iface shortAdd = client.proxyBuilder(Calculator.Iface.class)
                    .readTimeout("add", Duration.ofMillis(200)).build();
            Calculator.Iface shortPing = client.proxyBuilder(Calculator.Iface.class)
                    .readTimeout("ping", Duration.ofMillis(1)).build();

            // 3 s is well over the client's 1.5 s: only the per-method 10 s lets it finish.
            assertThatThrownBy(() -> plain.add(SLEEP, 3000)).isInstanceOf(ThriftTransportFailureException.class);
            assertThat(longAdd.add(SLEEP, 3000)).isZero();
            // An override for one method leaves the others at the client's 1.5 s.
            assertThat(shortPing.add(SLEEP, 100)).isZero();

            long started = System.nanoTime();
            assertThatThrownBy(() -> shortAdd.add(SLEEP, 1600))
                    .isInstanceOfSatisfying(ThriftTransportFailureException.class, e -> {
                        assertThat(e.getType()).isEqualTo(TTransportException.TIMED_OUT);
                        assertThat(e.server()).isEqualTo(name);
                        assertThat(e.requestMayHaveReachedServer()).isTrue();
                        assertThat(e).hasMessageContaining(name).hasMessageContaining("no reply within 200 ms");
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .isBetween(Duration.ofMillis(200), Duration.ofMillis(1500));
        }
    }

    @Test
    void perMethodTimeoutsAreValidated() throws Exception {
        try (ThriftClient client = ThriftClient.builder().server("127.0.0.1", 1).build()) {
            assertThatThrownBy(() -> client.proxyBuilder(Calculator.Iface.class).readTimeout("nope", Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no method nope");
            assertThatThrownBy(() -> client.proxyBuilder(Calculator.Iface.class).readTimeout("add", Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("readTimeout");
        }
        ThriftClientBuilder builder = ThriftClient.builder();
        assertThatThrownBy(() -> builder.failAfterTimeouts(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("failAfterTimeouts");
    }

    @Test
    void aTimedOutConnectionIsNeverReused() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = start(handler, 0);
             ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port())
                     .maxConnections(1).readTimeout(Duration.ofSeconds(5)).retries(0).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            Calculator.Iface impatient = client.proxyBuilder(Calculator.Iface.class)
                    .readTimeout("add", Duration.ofMillis(200)).build();
            // The reply comes only once the call has given up, however late its thread runs.
            assertThatThrownBy(() -> impatient.add(BLOCK, 0)).isInstanceOf(ThriftTransportFailureException.class);
            handler.release();
            // On the same connection this request would queue behind the sleeping call, and that
            // call's late reply (0) would be read as this one's.
            assertThat(calculator.add(2, 3)).isEqualTo(5);
            assertThat(calculator.add(4, 5)).isEqualTo(9);
        }
    }

    @Test
    void consecutiveTimeoutsTakeAServerOutOfRotationAndARepliedCallResetsTheCount() throws Exception {
        // Its add(BLOCK, 0) calls answer only at the end, long after each has given up, however late their thread runs.
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = start(handler, 0);
             ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port())
                     .readTimeout(Duration.ofSeconds(5)).retries(0).failAfterTimeouts(2)
                     .healthCheckInterval(Duration.ofHours(1)).build()) {
            try {
                String name = "127.0.0.1:" + server.port();
                Calculator.Iface calculator = client.proxyBuilder(Calculator.Iface.class)
                        .readTimeout("add", Duration.ofMillis(200)).build();

                assertThatThrownBy(() -> calculator.add(BLOCK, 0)).isInstanceOf(ThriftTransportFailureException.class);
                assertThat(calculator.getStruct(1).getValue()).isEqualTo("value 1");
                assertThatThrownBy(() -> calculator.add(BLOCK, 0)).isInstanceOf(ThriftTransportFailureException.class);
                assertThat(client.serversInRotation()).containsExactly(name);

                assertThatThrownBy(() -> calculator.add(BLOCK, 0)).isInstanceOf(ThriftTransportFailureException.class);
                assertThat(client.serversInRotation()).isEmpty();
                // With every server out of rotation, calls still try them.
                assertThat(calculator.getStruct(2).getValue()).isEqualTo("value 2");
            } finally {
                // Before the server closes, which would wait for the blocked calls.
                handler.release();
            }
        }
    }

    @Test
    void aServerThatAcceptsButNeverAnswersStaysOutOfRotationUntilItAnswers() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        // Never accept()ed: the kernel still completes every TCP handshake into the backlog, so
        // connecting works and requests are sent, but nothing ever answers, like a hung process.
        ServerSocket silent = new ServerSocket(0, 200, InetAddress.getByName("127.0.0.1"));
        int silentPort = silent.getLocalPort();
        String silentName = "127.0.0.1:" + silentPort;
        try (ThriftServer server = start(handler, 0);
             ThriftClient client = ThriftClient.builder()
                     .server("127.0.0.1", silentPort).server("127.0.0.1", server.port())
                     .connectTimeout(Duration.ofSeconds(1)).readTimeout(Duration.ofSeconds(2))
                     .failAfterTimeouts(1).healthCheckInterval(Duration.ofMillis(100)).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            ThriftTransportFailureException timedOut = null;
            for (int i = 0; i < 2 && timedOut == null; i++) {
                try {
                    assertThat(calculator.add(i, 1)).isEqualTo(i + 1);
                } catch (ThriftTransportFailureException e) {
                    timedOut = e;
                }
            }
            assertThat(timedOut).isNotNull();
            assertThat(timedOut.getType()).isEqualTo(TTransportException.TIMED_OUT);
            assertThat(timedOut.server()).isEqualTo(silentName);
            assertThat(timedOut.requestMayHaveReachedServer()).isTrue();
            assertThat(client.serversInRotation()).containsExactly("127.0.0.1:" + server.port());

            // The monitor connects every 100 ms, and connecting works, but the probe gets no answer.
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                    .until(() -> !client.serversInRotation().contains(silentName));
            int before = handler.calls.get();
            for (int i = 0; i < 20; i++) {
                assertThat(calculator.add(i, 1)).isEqualTo(i + 1);
            }
            assertThat(handler.calls.get()).isEqualTo(before + 20);

            silent.close();
            try (ThriftServer answering = start(new CalculatorHandler(), silentPort)) {
                await().atMost(Duration.ofSeconds(5)).until(() -> client.serversInRotation().contains(silentName));
            }
        } finally {
            silent.close();
        }
    }

    @Test
    void aMultiplexedServerIsAlsoBroughtBackByTheMonitor() throws Exception {
        // A multiplexed processor answers the monitor's probe (which names no service) by closing
        // the connection rather than with an error reply; that still shows the process is running.
        TMultiplexedProcessor processor = new TMultiplexedProcessor();
        CalculatorHandler handler = new CalculatorHandler();
        processor.registerProcessor("Calculator", new Calculator.Processor<>(handler));
        try (ThriftServer server = ThriftServer.builder(processor).host("127.0.0.1").port(0).build().start();
             ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port())
                     .failAfterTimeouts(1).retries(0).healthCheckInterval(Duration.ofSeconds(1)).build()) {
            Calculator.Iface calculator = client.proxyBuilder(Calculator.Iface.class).serviceName("Calculator")
                    .readTimeout("add", Duration.ofMillis(200)).build();
            // The reply comes only once the call has given up, however late its thread runs.
            assertThatThrownBy(() -> calculator.add(BLOCK, 0)).isInstanceOf(ThriftTransportFailureException.class);
            // The call took the server out; the monitor's next probe, up to a second away, brings it back.
            assertThat(client.serversInRotation()).isEmpty();
            handler.release();
            await().atMost(Duration.ofSeconds(30)).until(() -> client.serversInRotation().size() == 1);
            assertThat(calculator.getStruct(3).getValue()).isEqualTo("value 3");
        }
    }

    private static ThriftServer start(CalculatorHandler handler, int port) {
        return ThriftServer.builder(new Calculator.Processor<>(handler)).host("127.0.0.1").port(port)
                .workerThreads(8).build().start();
    }
}
