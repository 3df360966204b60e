package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A misbehaving server on a plain socket answers {@code add} with replies that do not belong to
 * the call: another method's name, another sequence id, a frame nobody asked for. The client must
 * fail that call with a typed error, close the connection, and never hand the value to a caller.
 */
class ReplyMatchingTest {
    /** What the misbehaving server does to the reply of one request. */
    private interface Tamper {
        TMessage reply(TMessage request, int connectionIndex, int requestIndex);
    }

    private ScriptedAddServer server;
    private ThriftClient client;

    @AfterEach
    void close() throws IOException {
        if (client != null) {
            client.close();
        }
        server.close();
    }

    @Test
    void replyNamingAnotherMethodFailsTheCallAndClosesTheConnection() throws Exception {
        Calculator.Iface calculator = clientOf(serve((request, connection, index) -> connection == 0
                ? new TMessage("calculate", TMessageType.REPLY, request.seqid) : request));

        assertThatThrownBy(() -> calculator.add(1, 2))
                .isInstanceOfSatisfying(ThriftTransportFailureException.class, e -> {
                    assertThat(e.getType()).isEqualTo(TTransportException.CORRUPTED_DATA);
                    assertThat(e.requestMayHaveReachedServer()).isTrue();
                    assertThat(e).hasMessageContaining("calculate");
                });
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closedByClient.get() == 1);
        assertThat(calculator.add(1, 2)).isEqualTo(3);
    }

    @Test
    void replyWithAnotherSequenceIdIsRetriedOnAnotherConnectionOnlyWhenIdempotent() throws Exception {
        Tamper wrongSeqidOnFirstConnection = (request, connection, index) -> connection == 0
                ? new TMessage(request.name, TMessageType.REPLY, request.seqid + 1) : request;
        Calculator.Iface idempotent = serveAndBuild(wrongSeqidOnFirstConnection, "add");

        assertThat(idempotent.add(20, 22)).isEqualTo(42);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closedByClient.get() == 1);
    }

    @Test
    void frameArrivingWhileNoCallWaitsClosesTheConnection() throws Exception {
        Calculator.Iface calculator = clientOf(serve((request, connection, index) -> request, true));

        assertThat(calculator.add(2, 3)).isEqualTo(5);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closedByClient.get() == 1);
        assertThat(calculator.add(4, 5)).isEqualTo(9);
    }

    private Calculator.Iface serveAndBuild(Tamper tamper, String idempotentMethod) throws IOException {
        int port = serve(tamper);
        client = ThriftClient.builder().server("127.0.0.1", port).retries(1).build();
        return client.proxyBuilder(Calculator.Iface.class).idempotent(idempotentMethod).build();
    }

    private Calculator.Iface clientOf(int port) {
        client = ThriftClient.builder().server("127.0.0.1", port).retries(1).build();
        return client.proxy(Calculator.Iface.class);
    }

    private int serve(Tamper tamper) throws IOException {
        return serve(tamper, false);
    }

    /** Serves {@code add} on every accepted connection; {@code unsolicited} pushes a second reply after each. */
    private int serve(Tamper tamper, boolean unsolicited) throws IOException {
        server = ScriptedAddServer.start((request, out) -> {
            TMessage reply = tamper.reply(new TMessage(request.call().name, TMessageType.REPLY, request.call().seqid),
                    request.connectionIndex(), request.requestIndex());
            out.write(ScriptedAddServer.Request.reply(reply, request.sum()));
            if (unsolicited) {
                out.write(ScriptedAddServer.Request.reply(reply, -request.sum()));
            }
            return true;
        });
        return server.port();
    }
}
