package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The calling thread reads its own reply off the socket. A scripted server on a plain socket sends
 * replies in pieces, stalls halfway, closes idle connections or never answers, and the client
 * must assemble, time out, replace and fail exactly as it would with a selector thread reading.
 */
class CallerThreadReadingTest {
    /** What the scripted server does with the reply bytes of one request. */
    private interface Script {
        /** Sends (or withholds) {@code reply}; returns false to close the connection afterwards. */
        boolean answer(int connectionIndex, int requestIndex, byte[] reply, OutputStream out)
                throws IOException, InterruptedException;
    }

    private final AtomicInteger requestsReceived = new AtomicInteger();
    private final AtomicInteger connectionsClosed = new AtomicInteger();
    private ServerSocket socket;
    private ThriftClient client;

    @AfterEach
    void close() throws IOException {
        if (client != null) {
            client.close();
        }
        socket.close();
    }

    @Test
    void aReplySentInPiecesIsAssembledFromSeveralReads() throws Exception {
        Calculator.Iface calculator = clientOf(serve((connection, request, reply, out) -> {
            for (int offset = 0; offset < reply.length; offset += 3) {
                out.write(reply, offset, Math.min(3, reply.length - offset));
                out.flush();
                // A pause pushes each piece into its own segment, so the caller sees several reads.
                Thread.sleep(5);
            }
            return true;
        }), Duration.ofSeconds(10));

        for (int i = 0; i < 3; i++) {
            assertThat(calculator.add(i, 40)).isEqualTo(i + 40);
        }
        assertThat(client.busyConnections() + client.idleConnections()).isEqualTo(1);
    }

    @Test
    void aReplyThatStallsHalfwayTimesOutAndTheNextCallGetsAFreshConnection() throws Exception {
        Calculator.Iface calculator = clientOf(serve((connection, request, reply, out) -> {
            out.write(reply, 0, connection == 0 ? reply.length / 2 : reply.length);
            out.flush();
            return true;
        }), Duration.ofMillis(300));

        assertThatThrownBy(() -> calculator.add(1, 2))
                .isInstanceOfSatisfying(ThriftTransportFailureException.class,
                        e -> assertThat(e.getType()).isEqualTo(TTransportException.TIMED_OUT));
        await().atMost(Duration.ofSeconds(5)).until(() -> connectionsClosed.get() == 1);
        assertThat(calculator.add(3, 4)).isEqualTo(7);
    }

    @Test
    void anIdleConnectionTheServerClosedIsNotUsedForTheNextCall() throws Exception {
        // add is not idempotent: were the closed connection used, the call would fail, not retry.
        Calculator.Iface calculator = clientOf(serve((connection, request, reply, out) -> {
            out.write(reply);
            out.flush();
            return connection != 0;
        }), Duration.ofSeconds(10));

        assertThat(calculator.add(1, 1)).isEqualTo(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> connectionsClosed.get() == 1);
        // No call reads an idle connection; the pool's monitor notices the close by itself.
        await().atMost(Duration.ofSeconds(5)).until(() -> client.idleConnections() == 0);
        assertThat(calculator.add(2, 2)).isEqualTo(4);
        assertThat(requestsReceived).hasValue(2);
    }

    @Test
    void closingTheClientFailsACallWaitingForItsReplyAtOnce() throws Exception {
        Calculator.Iface calculator = clientOf(serve((connection, request, reply, out) -> true),
                Duration.ofMinutes(5));

        CompletableFuture<Integer> call = CompletableFuture.supplyAsync(() -> {
            try {
                return calculator.add(1, 2);
            } catch (TException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> requestsReceived.get() == 1);
        client.close();

        assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().cause().isInstanceOf(ThriftTransportFailureException.class);
    }

    private Calculator.Iface clientOf(int port, Duration readTimeout) {
        client = ThriftClient.builder().server("127.0.0.1", port).readTimeout(readTimeout)
                .retries(0).failAfterTimeouts(100).maxConnections(1).build();
        return client.proxy(Calculator.Iface.class);
    }

    /** Serves {@code add} on every accepted connection, each reply handed to {@code script}. */
    private int serve(Script script) throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            int connection = 0;
            while (!socket.isClosed()) {
                try {
                    Socket accepted = socket.accept();
                    int index = connection++;
                    Thread handler = new Thread(() -> answer(accepted, script, index));
                    handler.setDaemon(true);
                    handler.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "scripted-thrift-server");
        acceptor.setDaemon(true);
        acceptor.start();
        return socket.getLocalPort();
    }

    private void answer(Socket connection, Script script, int connectionIndex) {
        try (connection) {
            DataInputStream in = new DataInputStream(connection.getInputStream());
            OutputStream out = connection.getOutputStream();
            for (int request = 0; ; request++) {
                int length;
                try {
                    length = in.readInt();
                } catch (IOException endOfStream) {
                    return;
                }
                TBinaryProtocol reader = new TBinaryProtocol(new TMemoryInputTransport(in.readNBytes(length)));
                TMessage call = reader.readMessageBegin();
                Calculator.add_args args = new Calculator.add_args();
                args.read(reader);
                requestsReceived.incrementAndGet();
                byte[] reply = reply(new TMessage(call.name, TMessageType.REPLY, call.seqid),
                        args.getNum1() + args.getNum2());
                if (!script.answer(connectionIndex, request, reply, out)) {
                    return;
                }
            }
        } catch (IOException | TException | InterruptedException e) {
            // The test sees the effect through the client; a broken socket ends this connection.
        } finally {
            connectionsClosed.incrementAndGet();
        }
    }

    private static byte[] reply(TMessage message, int sum) throws TException, IOException {
        TMemoryBuffer body = new TMemoryBuffer(64);
        TBinaryProtocol writer = new TBinaryProtocol(body);
        writer.writeMessageBegin(message);
        new Calculator.add_result().setSuccess(sum).write(writer);
        writer.writeMessageEnd();
        return RawFrames.frame(body.getArray(), body.length());
    }
}
