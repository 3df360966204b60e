package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client that pipelines requests and does not read the replies cannot make the server queue
 * them without bound: once a connection's write queue is full the server stops reading it, so the
 * client's writes stall, other connections are served, and every reply arrives once it reads.
 */
class UnreadRepliesTest {
    private static final int PAYLOAD = 1 << 20;
    /** 64 MB of replies: far more than the socket buffers and the server's bound together. */
    private static final int CALLS = 64;
    /**
     * Calls the server may have answered while the client reads nothing: the kernel's buffers
     * (up to 4 MB sent on loopback, a 64 KB receive buffer), the server's 1 MB bound and the calls
     * already read when reading stopped, with room to spare; far below {@link #CALLS}.
     */
    private static final int MOST_CALLS_ANSWERED = 24;

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void aClientThatDoesNotReadItsRepliesIsStoppedUntilItReads(IoStrategy strategy) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).workerThreads(4)
                .build().start();
             Socket stalled = new Socket()) {
            stalled.setReceiveBufferSize(64 * 1024);
            stalled.connect(new InetSocketAddress("127.0.0.1", server.port()));
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = stalled.getOutputStream();
                    for (int seqId = 1; seqId <= CALLS; seqId++) {
                        out.write(RawFrames.echoRequest(seqId, payload(seqId)));
                    }
                    out.flush();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            await().atMost(Duration.ofSeconds(20)).until(() -> handler.calls.get() > 0);
            // Unbounded, the server would answer all 64 calls within this time.
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                    .until(() -> handler.calls.get() <= MOST_CALLS_ANSWERED && !writer.isDone());

            try (TTransport transport = new TFramedTransport(new TSocket(new TConfiguration(),
                    "127.0.0.1", server.port(), 5_000))) {
                transport.open();
                Calculator.Client other = new Calculator.Client(new TBinaryProtocol(transport));
                assertThat(other.add(2, 3)).isEqualTo(5);
                assertThat(other.echo(ByteBuffer.wrap(payload(0)))).isEqualTo(ByteBuffer.wrap(payload(0)));
            }

            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                for (int seqId = 1; seqId <= CALLS; seqId++) {
                    RawFrames.Reply reply = RawFrames.readBinaryReply(stalled);
                    assertThat(reply.seqId()).isEqualTo(seqId);
                    Calculator.echo_result result = new Calculator.echo_result();
                    result.read(reply.result());
                    assertThat(Arrays.equals(result.getSuccess(), payload(seqId))).as("payload of call %d", seqId).isTrue();
                }
            });
            writer.get(5, TimeUnit.SECONDS);
        }
    }

    /** A payload whose bytes depend on the call, so a reply of another call or a shifted one shows. */
    private static byte[] payload(int seqId) {
        byte[] payload = new byte[PAYLOAD + seqId];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31 + seqId);
        }
        return payload;
    }
}
