package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class GracefulStopTest {

    @Test
    void stopLetsRunningCallsReplyThenRefusesConnections() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).build().start();
        int port = server.port();
        try (ThriftClient client = ThriftClient.builder().server("127.0.0.1", port).retries(0).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            calculator.ping(); // one idle connection besides the busy one below
            int callsBefore = handler.calls.get();
            CompletableFuture<Integer> slow = CompletableFuture.supplyAsync(() -> {
                try {
                    return calculator.add(CalculatorHandler.SLEEP, 500);
                } catch (org.apache.thrift.TException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.get() == callsBefore + 1);

            assertThat(server.stop(Duration.ofSeconds(10))).isTrue();

            assertThat(slow.join()).isZero();
            assertThat(handler.slowCallsFinished.get()).isEqualTo(1);
            assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(value = IoStrategy.class, names = {"CONNECTION_QUEUE", "CONNECTION_READER"})
    void callsQueuedBehindARunningCallAlsoReplyBeforeTheConnectionCloses(IoStrategy strategy) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).build().start();
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            ByteArrayOutputStream requests = new ByteArrayOutputStream();
            requests.write(RawFrames.addRequest(1, CalculatorHandler.SLEEP, 500));
            requests.write(RawFrames.addRequest(2, 20, 22));
            socket.getOutputStream().write(requests.toByteArray());
            await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.get() == 1);

            assertThat(server.stop(Duration.ofSeconds(10))).isTrue();

            assertThat(RawFrames.readReplyLength(socket)).isPositive();
            assertThat(RawFrames.readReplyLength(socket)).isPositive();
            assertThat(handler.calls.get()).isEqualTo(2);
            assertThat(RawFrames.readReplyLength(socket)).isEqualTo(-1);
        }
    }

    @Test
    void callsStillRunningAtTheDeadlineAreCutOff() throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).build().start();
        try (ThriftClient client = ThriftClient.builder().server("127.0.0.1", server.port()).retries(0).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            CompletableFuture<Integer> slow = CompletableFuture.supplyAsync(() -> {
                try {
                    return calculator.add(CalculatorHandler.SLEEP, 20_000);
                } catch (org.apache.thrift.TException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.get() == 1);

            assertThat(server.stop(Duration.ofMillis(200))).isFalse();
            assertThatThrownBy(slow::join).hasRootCauseInstanceOf(org.apache.thrift.transport.TTransportException.class);
        }
    }
}
