package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.Socket;
import java.time.Duration;

import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The server's idle timeout ends silent connections but never a call that is still running. */
class ServerIdleTimeoutTest {
    private static final Duration IDLE_TIMEOUT = Duration.ofMillis(300);

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void aCallLongerThanTheIdleTimeoutRepliesAndTheConnectionClosesOnceIdle(IoStrategy strategy) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).idleTimeout(IDLE_TIMEOUT)
                .build().start()) {
            Socket socket = new Socket("127.0.0.1", server.port());
            try (TTransport transport = new TFramedTransport(new TSocket(socket))) {
                Calculator.Client client = new Calculator.Client(new TBinaryProtocol(transport));

                assertThat(client.add(CalculatorHandler.SLEEP, (int) IDLE_TIMEOUT.toMillis() * 4)).isZero();
                assertThat(client.add(2, 3)).isEqualTo(5);

                await().atMost(Duration.ofSeconds(5)).until(() -> RawFrames.closedByServer(socket));
            }
        }
    }
}
