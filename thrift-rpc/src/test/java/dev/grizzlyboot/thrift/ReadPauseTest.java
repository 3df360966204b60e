package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TProcessor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client that sends requests without waiting for replies cannot make the server buffer them
 * without bound: while a handler is stuck, the server stops reading that connection, so the
 * client's writes stall in the socket buffers; once the handler goes on, every call is answered.
 */
class ReadPauseTest {
    private static final int PAYLOAD = 1 << 20;
    /** 64 MB: more than loopback's socket buffers can hold (up to 32 MB received plus 4 MB sent). */
    private static final int CALLS = 64;

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void aStuckHandlerStopsReadingUntilItGoesOn(IoStrategy strategy) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        TProcessor calculator = new Calculator.Processor<>(new CalculatorHandler());
        TProcessor stuckUntilReleased = (in, out) -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            calculator.process(in, out);
        };
        byte[] payload = new byte[PAYLOAD];
        Arrays.fill(payload, (byte) 7);
        byte[] request = RawFrames.echoRequest(1, payload);
        AtomicLong written = new AtomicLong();
        try (ThriftServer server = ThriftServer.builder(stuckUntilReleased)
                .host("127.0.0.1").port(0).ioStrategy(strategy).workerThreads(4)
                .build().start();
             Socket socket = new Socket("127.0.0.1", server.port())) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    for (int i = 0; i < CALLS; i++) {
                        out.write(request);
                        written.addAndGet(request.length);
                    }
                    out.flush();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            // Unread, the whole 64 MB would be written in well under a second.
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                    .until(() -> !writer.isDone() && written.get() < (long) CALLS * request.length);

            release.countDown();
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                for (int i = 0; i < CALLS; i++) {
                    RawFrames.Reply reply = RawFrames.readBinaryReply(socket);
                    assertThat(reply.seqId()).as("reply %d", i + 1).isEqualTo(1);
                    Calculator.echo_result result = new Calculator.echo_result();
                    result.read(reply.result());
                    assertThat(result.getSuccess()).hasSize(PAYLOAD);
                }
            });
            writer.get(5, TimeUnit.SECONDS);
        }
    }
}
