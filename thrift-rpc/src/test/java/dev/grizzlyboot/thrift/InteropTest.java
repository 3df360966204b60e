package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.InvalidOperation;
import dev.grizzlyboot.thrift.tutorial.Operation;
import dev.grizzlyboot.thrift.tutorial.Work;
import org.apache.thrift.server.TNonblockingServer;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TNonblockingServerSocket;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Our server with libthrift's framed socket client, and our client with libthrift's servers. */
class InteropTest {

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void libthriftFramedSocketClientCallsOurServer(ThriftProtocol protocol) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).protocol(protocol).build().start()) {
            TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", server.port(), 5000));
            transport.open();
            try {
                Calculator.Client client = new Calculator.Client(protocol.factory().getProtocol(transport));
                client.ping();
                assertThat(client.add(40, 2)).isEqualTo(42);
                assertThatThrownBy(() -> client.calculate(1, new Work(1, 0, Operation.DIVIDE)))
                        .isInstanceOf(InvalidOperation.class);
                client.zip();
                assertThat(client.getStruct(9).getKey()).isEqualTo(9);
                await().atMost(Duration.ofSeconds(5)).until(() -> handler.zips.get() == 1);
                // The handler echoes a view into the request frame, which our server writes back.
                assertEchoesBinaryFieldsAsGiven(client);
            } finally {
                transport.close();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void ourClientCallsLibthriftThreadPoolServer(ThriftProtocol protocol) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        TServerSocket socket = new TServerSocket(new InetSocketAddress("127.0.0.1", 0));
        TServer server = new TThreadPoolServer(new TThreadPoolServer.Args(socket)
                .processor(new Calculator.Processor<>(handler))
                .protocolFactory(protocol.factory())
                .transportFactory(new TFramedTransport.Factory())
                .minWorkerThreads(2).maxWorkerThreads(8));
        callThrough(server, socket.getServerSocket().getLocalPort(), protocol, handler);
    }

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void ourClientCallsLibthriftNonblockingServer(ThriftProtocol protocol) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        TNonblockingServerSocket socket = new TNonblockingServerSocket(new InetSocketAddress("127.0.0.1", 0));
        TServer server = new TNonblockingServer(new TNonblockingServer.Args(socket)
                .processor(new Calculator.Processor<>(handler))
                .protocolFactory(protocol.factory()));
        callThrough(server, socket.getPort(), protocol, handler);
    }

    /**
     * Binary fields taken from a slice of a larger array, from a read-only view and from a direct
     * buffer come back byte for byte (the compact protocol hands them to the transport as buffers).
     */
    private static void assertEchoesBinaryFieldsAsGiven(Calculator.Iface calculator) throws Exception {
        byte[] backing = new byte[1000];
        for (int i = 0; i < backing.length; i++) {
            backing[i] = (byte) (i * 7 + 1);
        }
        ByteBuffer slice = ByteBuffer.wrap(backing, 100, 700).slice().position(13);
        ByteBuffer direct = ByteBuffer.allocateDirect(500).put(backing, 0, 500).flip();
        for (ByteBuffer sent : new ByteBuffer[] {slice, slice.asReadOnlyBuffer(), direct}) {
            ByteBuffer expected = sent.duplicate();
            assertThat(calculator.echo(sent.duplicate())).isEqualTo(expected);
        }
    }

    private static void callThrough(TServer server, int port, ThriftProtocol protocol, CalculatorHandler handler)
            throws Exception {
        ExecutorService serving = Executors.newSingleThreadExecutor();
        serving.submit(server::serve);
        try (ThriftClient client = ThriftClient.builder().server("127.0.0.1", port).protocol(protocol).build()) {
            await().atMost(Duration.ofSeconds(5)).until(server::isServing);
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            calculator.ping();
            assertThat(calculator.add(40, 2)).isEqualTo(42);
            assertThatThrownBy(() -> calculator.calculate(1, new Work(1, 0, Operation.DIVIDE)))
                    .isInstanceOf(InvalidOperation.class);
            calculator.zip();
            assertThat(calculator.getStruct(9).getKey()).isEqualTo(9);
            await().atMost(Duration.ofSeconds(5)).until(() -> handler.zips.get() == 1);
            assertEchoesBinaryFieldsAsGiven(calculator);
            // Larger than one socket read: the calling thread assembles it over several reads.
            byte[] payload = new byte[300_000];
            for (int i = 0; i < payload.length; i++) {
                payload[i] = (byte) (i * 31);
            }
            ByteBuffer echoed = calculator.echo(ByteBuffer.wrap(payload));
            byte[] received = new byte[echoed.remaining()];
            echoed.get(received);
            assertThat(received).isEqualTo(payload);
            // Larger than the socket takes at once: the rest of the request waits in Grizzly's write queue.
            byte[] large = new byte[4_000_000];
            for (int i = 0; i < large.length; i++) {
                large[i] = (byte) (i * 13);
            }
            assertThat(calculator.echo(ByteBuffer.wrap(large))).isEqualTo(ByteBuffer.wrap(large));
            assertThat(calculator.add(1, 2)).isEqualTo(3);
        } finally {
            server.stop();
            serving.shutdownNow();
        }
    }
}
