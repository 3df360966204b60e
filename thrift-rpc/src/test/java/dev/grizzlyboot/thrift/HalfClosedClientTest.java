package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client that sends its requests and then shuts down its output (a TCP half close: it has
 * nothing more to send and waits for its replies) gets every reply and then the end of the
 * stream, as from libthrift's {@code TThreadPoolServer}, with every I/O strategy: after a call
 * still running when the end of input arrives, and over several rounds of quick calls, where
 * whether the end of input is read before the replies are written depends on timing.
 */
class HalfClosedClientTest {
    private static final int ROUNDS = 30;
    private static final int REQUESTS = 3;

    @Test
    void libthriftAnswersEveryRequestBeforeClosing() throws Exception {
        try (LibthriftServer server = LibthriftServer.start(new Calculator.Processor<>(new CalculatorHandler()))) {
            assertEveryRequestAnswered(server.port());
        }
    }

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void ourServerAnswersEveryRequestBeforeClosing(IoStrategy strategy) throws Exception {
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).ioStrategy(strategy).build().start()) {
            assertEveryRequestAnswered(server.port());
        }
    }

    private static void assertEveryRequestAnswered(int port) throws Exception {
        // First a call that is still running when the end of input arrives, whatever the timing.
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(RawFrames.addRequest(7, CalculatorHandler.SLEEP, 300));
            socket.shutdownOutput();
            assertThat(RawFrames.readBinaryReply(socket).seqId()).as("the slow call's reply").isEqualTo(7);
            assertThat(socket.getInputStream().read()).as("then the end of the stream").isEqualTo(-1);
        }
        for (int round = 0; round < ROUNDS; round++) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(5000);
                ByteArrayOutputStream requests = new ByteArrayOutputStream();
                for (int i = 1; i <= REQUESTS; i++) {
                    requests.write(RawFrames.addRequest(i, i, 100));
                }
                socket.getOutputStream().write(requests.toByteArray());
                socket.shutdownOutput();
                List<String> answers = new ArrayList<>();
                for (int i = 1; i <= REQUESTS; i++) {
                    RawFrames.Reply reply = RawFrames.readBinaryReply(socket);
                    reply.result().readStructBegin();
                    reply.result().readFieldBegin();
                    answers.add(reply.seqId() + ": " + reply.result().readI32());
                }
                assertThat(answers).as("round %d", round).containsExactly("1: 101", "2: 102", "3: 103");
                assertThat(socket.getInputStream().read()).as("then the end of the stream").isEqualTo(-1);
            }
        }
    }
}
