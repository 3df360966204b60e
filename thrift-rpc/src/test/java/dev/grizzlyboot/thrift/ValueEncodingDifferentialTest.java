package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftClientBuilder;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generated argument structs of every value type (see {@link RandomValues}) sent to libthrift's
 * {@code TThreadPoolServer} and to ours with the same echoing processor, binary and compact, on
 * every I/O strategy: our server must answer each with the same bytes as libthrift's, on one
 * connection, first one call at a time and then all of them written before any reply is read.
 */
class ValueEncodingDifferentialTest {
    private static final int CALLS = 300;
    private static final long SEED = 20261202L;

    @ParameterizedTest
    @MethodSource("dev.grizzlyboot.thrift.ProtocolsAndStrategies#all")
    void ourServerEchoesEveryValueAsLibthriftDoes(ThriftProtocol protocol, IoStrategy strategy) throws Exception {
        List<byte[]> requests = requests(protocol);
        List<byte[]> expected;
        try (LibthriftServer oracle = LibthriftServer.start(new ValueEchoProcessor(),
                args -> args.protocolFactory(protocol.factory()))) {
            expected = oneAtATime(oracle.port(), requests);
        }
        assertThat(expected).as("libthrift's replies").doesNotContainNull();
        try (ThriftServer server = ThriftServer.builder(new ValueEchoProcessor()).host("127.0.0.1").port(0)
                .protocol(protocol).ioStrategy(strategy).build().start()) {
            assertSameReplies(oneAtATime(server.port(), requests), expected);
            assertSameReplies(pipelined(server.port(), requests), expected);
        }
    }

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void ourClientReadsEveryValueAsLibthriftsDoes(ThriftProtocol protocol) throws Exception {
        try (LibthriftServer libthrift = LibthriftServer.start(new ValueEchoProcessor(),
                args -> args.protocolFactory(protocol.factory()));
             ThriftServer ours = ThriftServer.builder(new ValueEchoProcessor()).host("127.0.0.1").port(0)
                     .protocol(protocol).build().start()) {
            List<byte[]> expected = libthriftClientResults(libthrift.port(), protocol);
            assertSameReplies(pooledClientResults(ThriftClient.builder().server("127.0.0.1", libthrift.port())
                    .protocol(protocol)), expected);
            assertSameReplies(pooledClientResults(ThriftClient.builder().server("127.0.0.1", ours.port())
                    .protocol(protocol)), expected);
        }
    }

    static List<byte[]> libthriftClientResults(int port, ThriftProtocol protocol) throws TException {
        List<byte[]> results = new ArrayList<>();
        TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", port, 10_000));
        transport.open();
        try {
            ValueService.Client client = new ValueService.Client(protocol.factory().getProtocol(transport));
            for (int seed = 1; seed <= CALLS; seed++) {
                results.add(client.echo(seed));
            }
        } finally {
            transport.close();
        }
        return results;
    }

    /** Four threads share two pooled connections, so each connection carries calls of every thread. */
    static List<byte[]> pooledClientResults(ThriftClientBuilder builder) throws Exception {
        try (ThriftClient client = builder.maxConnections(2).build()) {
            ValueService.Iface values = client.proxy(ValueService.Iface.class);
            ExecutorService callers = Executors.newFixedThreadPool(4);
            try {
                List<Future<byte[]>> calls = new ArrayList<>();
                for (int seed = 1; seed <= CALLS; seed++) {
                    long chosen = seed;
                    calls.add(callers.submit(() -> values.echo(chosen)));
                }
                List<byte[]> results = new ArrayList<>();
                for (Future<byte[]> call : calls) {
                    results.add(call.get(30, TimeUnit.SECONDS));
                }
                return results;
            } finally {
                callers.shutdownNow();
            }
        }
    }

    static void assertSameReplies(List<byte[]> actual, List<byte[]> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i)).as("reply to call %d", i + 1).isEqualTo(expected.get(i));
        }
    }

    private static List<byte[]> requests(ThriftProtocol protocol) throws TException, IOException {
        RandomValues values = new RandomValues(SEED);
        List<byte[]> requests = new ArrayList<>();
        for (int seqId = 1; seqId <= CALLS; seqId++) {
            TMemoryBuffer body = new TMemoryBuffer(256);
            TProtocol out = protocol.factory().getProtocol(body);
            out.writeMessageBegin(new TMessage("echo" + seqId % 7, TMessageType.CALL, seqId));
            values.writeStruct(out, 0);
            out.writeMessageEnd();
            requests.add(RawFrames.frame(body.getArray(), body.length()));
        }
        return requests;
    }

    private static List<byte[]> oneAtATime(int port, List<byte[]> requests) throws IOException {
        List<byte[]> replies = new ArrayList<>();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            for (byte[] request : requests) {
                out.write(request);
                out.flush();
                replies.add(RawFrames.readReply(socket));
            }
        }
        return replies;
    }

    private static List<byte[]> pipelined(int port, List<byte[]> requests) throws Exception {
        List<byte[]> replies = new ArrayList<>();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                try {
                    for (byte[] request : requests) {
                        out.write(request);
                    }
                    out.flush();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            for (int i = 0; i < requests.size(); i++) {
                replies.add(RawFrames.readReply(socket));
            }
            writing.get(10, TimeUnit.SECONDS);
        }
        return replies;
    }
}
