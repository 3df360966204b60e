package dev.grizzlyboot.benchmarks.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Random;

import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.grizzlyboot.thrift.ThriftProtocol;
import dev.grizzlyboot.thrift.tutorial.Calculator;

/**
 * The floor server's byte-rewritten replies, read by libthrift's generated client (which checks the
 * message type, name, sequence id and result field) as the oracle, at every payload size the
 * benchmark uses and across the compact protocol's one- and two-byte length varints.
 */
class EchoFloorServerTest {

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void libthriftReadsEveryEchoAndAnyOtherCallEndsTheConnection(ThriftProtocol protocol) throws Exception {
        try (EchoFloorServer floor = new EchoFloorServer(protocol)) {
            TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", floor.port(), 5_000));
            transport.open();
            Calculator.Client client = new Calculator.Client(protocol.factory().getProtocol(transport));
            Random random = new Random(14);
            for (int size : new int[] {0, 1, 127, 128, 300, 3000, 16_383, 16_384, 100_000}) {
                byte[] payload = new byte[size];
                random.nextBytes(payload);
                assertThat(client.echo(ByteBuffer.wrap(payload))).as("%d B", size).isEqualTo(ByteBuffer.wrap(payload));
            }

            assertThatThrownBy(() -> client.add(1, 2)).isInstanceOf(TTransportException.class);
            transport.close();
        }
    }
}
