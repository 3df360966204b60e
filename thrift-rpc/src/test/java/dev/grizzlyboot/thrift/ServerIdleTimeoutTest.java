package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The server's idle timeout ends silent connections but never a call that is still running. */
@Tag("holds-connections")
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

    /**
     * A call that outlasts the idle timeout leaves the clock run out; its reply, which counts as
     * activity, must restart it, or the connection would close as soon as the call ends.
     */
    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void aReplyRestartsTheIdleClock(IoStrategy strategy) throws Exception {
        Duration idleTimeout = Duration.ofSeconds(2);
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).ioStrategy(strategy).idleTimeout(idleTimeout)
                .build().start()) {
            Socket socket = new Socket("127.0.0.1", server.port());
            try (TTransport transport = new TFramedTransport(new TSocket(socket))) {
                Calculator.Client client = new Calculator.Client(new TBinaryProtocol(transport));

                assertThat(client.add(CalculatorHandler.SLEEP, (int) idleTimeout.toMillis() * 3 / 2)).isZero();

                // Longer than an idle check's interval (a quarter of the timeout), well short of the timeout.
                await().during(idleTimeout.dividedBy(3)).atMost(idleTimeout.multipliedBy(2))
                        .until(() -> !RawFrames.closedByServer(socket));
                socket.setSoTimeout(0);
                assertThat(client.add(2, 3)).isEqualTo(5);
            }
        }
    }

    /**
     * Replies written by a worker race with the selector reading the next request; whichever
     * finishes last must not leave a connection that never idles out, nor one that closes mid-call.
     */
    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void everyConnectionClosesOnceIdleAfterABurstOfCalls(IoStrategy strategy) throws Exception {
        int connections = 8;
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).ioStrategy(strategy).idleTimeout(IDLE_TIMEOUT)
                .build().start()) {
            List<Socket> sockets = new ArrayList<>();
            List<CompletableFuture<Void>> bursts = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                // The server's idle clock starts no earlier than this, and restarts at each request it reads.
                long beforeConnect = System.nanoTime();
                Socket socket = new Socket("127.0.0.1", server.port());
                sockets.add(socket);
                bursts.add(CompletableFuture.runAsync(() -> burst(socket, beforeConnect)));
            }
            CompletableFuture.allOf(bursts.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            for (Socket socket : sockets) {
                await().atMost(Duration.ofSeconds(30)).until(() -> RawFrames.closedByServer(socket));
                socket.close();
            }
        }
    }

    /**
     * 500 calls in a row. A connection the server closes mid-burst fails the test unless this
     * thread itself left it idle for the idle timeout: on a loaded machine a thread may not run
     * for that long between two calls, and then the server is right to close. The server read the
     * previous request after that call started, so the connection was idle for less than the time
     * from then to the failure.
     */
    private static void burst(Socket socket, long beforeConnect) {
        Calculator.Client client;
        try {
            client = new Calculator.Client(new TBinaryProtocol(new TFramedTransport(new TSocket(socket))));
        } catch (TTransportException e) {
            throw new IllegalStateException(e);
        }
        long previousCallStart = beforeConnect;
        for (int i = 0; i < 500; i++) {
            long start = System.nanoTime();
            try {
                assertThat(client.add(i, 1)).isEqualTo(i + 1);
            } catch (TTransportException e) {
                long idleAtMostMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - previousCallStart);
                if (idleAtMostMillis >= IDLE_TIMEOUT.toMillis()) {
                    return;
                }
                throw new IllegalStateException("call " + i + " failed on a connection idle for at most " + idleAtMostMillis
                        + " ms, less than the idle timeout", e);
            } catch (TException e) {
                throw new IllegalStateException(e);
            }
            previousCallStart = start;
        }
    }
}
