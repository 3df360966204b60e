package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TTransportException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    /** Sequence id and name alone do not make a reply: a CALL or ONEWAY message never answers a call. */
    @ParameterizedTest
    @ValueSource(bytes = {TMessageType.CALL, TMessageType.ONEWAY})
    void messageOfAnotherTypeWithTheCallsNameAndSequenceIdIsNoReply(byte type) throws Exception {
        Calculator.Iface calculator = clientOf(serve((request, connection, index) -> connection == 0
                ? new TMessage(request.name, type, request.seqid) : request));

        assertCorruptedData(() -> calculator.add(1, 2));
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closedByClient.get() == 1);
        assertThat(calculator.add(1, 2)).isEqualTo(3);
    }

    /** Only an exception may answer a oneway call; a REPLY naming its sequence id is out of step. */
    @Test
    void replyMessageForAOnewayCallIsRefused() throws Exception {
        Calculator.Iface calculator = clientOf(serveAfterOneway(seqid -> ScriptedAddServer.Request.reply(
                new TMessage("zip", TMessageType.REPLY, seqid), 0)));

        calculator.zip();
        assertCorruptedData(() -> calculator.add(1, 2));
        assertThat(calculator.add(1, 2)).isEqualTo(3);
    }

    /**
     * A server answers a burst of oneway calls it cannot run only after the burst, with an error
     * for each: all are dropped, however many there are, and the connection goes on. The client
     * had remembered only the last 64 oneway calls, so the 65th error from the end failed the next
     * call with CORRUPTED_DATA and closed its connection.
     */
    @Test
    void errorRepliesToALongBurstOfOnewayCallsAreAllDropped() throws Exception {
        int burst = 300;
        ByteArrayOutputStream held = new ByteArrayOutputStream();
        server = ScriptedAddServer.start((request, out) -> {
            if (request.call().type == TMessageType.ONEWAY) {
                held.write(onewayError(request.call().seqid));
                return true;
            }
            held.writeTo(out);
            held.reset();
            out.write(request.reply());
            return true;
        });
        client = ThriftClient.builder().server("127.0.0.1", server.port()).maxConnections(1).build();
        Calculator.Iface calculator = client.proxy(Calculator.Iface.class);

        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < burst; i++) {
                calculator.zip();
            }
            assertThat(calculator.add(1, 2)).isEqualTo(3);
        }
        assertThat(server.closed).hasValue(0);
    }

    /** A oneway call's error reply is dropped once; the same one again was owed to no call. */
    @Test
    void secondErrorReplyForTheSameOnewayCallIsRefused() throws Exception {
        Calculator.Iface calculator = clientOf(serveAfterOneway(seqid -> {
            byte[] error = onewayError(seqid);
            ByteArrayOutputStream twice = new ByteArrayOutputStream();
            twice.write(error);
            twice.write(error);
            return twice.toByteArray();
        }));

        calculator.zip();
        assertCorruptedData(() -> calculator.add(1, 2));
        assertThat(calculator.add(1, 2)).isEqualTo(3);
    }

    /**
     * The matcher sees only a frame's first message: bytes after it in the same frame, here the
     * whole reply the next call on the connection would expect, must not be read as that call's answer.
     */
    @Test
    void bytesAfterTheReplyInItsFrameFailTheCallAndNeverAnswerTheNext() throws Exception {
        server = ScriptedAddServer.start((request, out) -> {
            byte[] reply = request.reply();
            byte[] next = ScriptedAddServer.Request.reply(
                    new TMessage("add", TMessageType.REPLY, request.call().seqid + 1), 1000);
            ByteArrayOutputStream payload = new ByteArrayOutputStream();
            payload.write(reply, 4, reply.length - 4);
            payload.write(next, 4, next.length - 4);
            out.write(RawFrames.frame(payload.toByteArray(), payload.size()));
            return true;
        });
        Calculator.Iface calculator = clientOf(server.port());

        for (int call = 0; call < 2; call++) {
            assertCorruptedData(() -> calculator.add(5, 5));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closedByClient.get() == 2);
    }

    /**
     * A reply that fails to parse leaves the rest of its frame unread, here a whole reply for the
     * next call: its connection must be closed, not given back for that call to read it.
     */
    @Test
    void replyThatFailsToParseIsNeverFollowedOnItsConnection() throws Exception {
        Calculator.Iface calculator = clientOfBrokenReplyThenTheNext(writer -> {
            writer.writeByte((byte) 99);
            writer.writeI16((short) 0);
        });

        assertThatThrownBy(() -> calculator.add(1, 2)).isInstanceOf(TProtocolException.class);
        assertThat(calculator.add(5, 5)).isEqualTo(10);
        assertThat(server.closedByClient.get()).isEqualTo(1);
    }

    /**
     * A string longer than what is left of its frame fails the reply as a transport error before
     * the rest of the frame, here a whole reply for the next call, is read: that connection must be
     * closed too, not given back for the next call to read the rest as its reply.
     */
    @Test
    void stringRunningPastItsFrameFailsTheCallAndItsConnectionIsNotReused() throws Exception {
        Calculator.Iface calculator = clientOfBrokenReplyThenTheNext(writer -> {
            writer.writeStructBegin(new TStruct("add_result"));
            writer.writeFieldBegin(new TField("success", TType.STRING, (short) 0));
            writer.writeI32(1 << 20);
        });

        assertThatThrownBy(() -> calculator.add(1, 2)).isInstanceOf(ThriftTransportFailureException.class);
        assertThat(calculator.add(5, 5)).isEqualTo(10);
        await().atMost(Duration.ofSeconds(5)).until(() -> server.closedByClient.get() == 1);
    }

    /** Writes what follows a broken reply's message header. */
    private interface BrokenReply {
        void write(TBinaryProtocol writer) throws TException;
    }

    /**
     * A client of a server whose first connection answers a call with {@code broken} after the
     * reply's message header and then, in the same frame, the whole reply the next call on that
     * connection would expect (sum 1000); later connections answer correctly.
     */
    private Calculator.Iface clientOfBrokenReplyThenTheNext(BrokenReply broken) throws IOException {
        server = ScriptedAddServer.start((request, out) -> {
            if (request.connectionIndex() > 0) {
                out.write(request.reply());
                return true;
            }
            TMemoryBuffer body = new TMemoryBuffer(64);
            TBinaryProtocol writer = new TBinaryProtocol(body);
            writer.writeMessageBegin(new TMessage("add", TMessageType.REPLY, request.call().seqid));
            broken.write(writer);
            byte[] next = ScriptedAddServer.Request.reply(
                    new TMessage("add", TMessageType.REPLY, request.call().seqid + 1), 1000);
            body.write(next, 4, next.length - 4);
            out.write(RawFrames.frame(body.getArray(), body.length()));
            return true;
        });
        return clientOf(server.port());
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

    /**
     * Serves {@code add} and takes the oneway {@code zip} without answering; on the first connection
     * the next {@code add} reply is preceded by {@code beforeReply} of the zip's sequence id.
     */
    private int serveAfterOneway(OnewayAnswer beforeReply) throws IOException {
        AtomicInteger onewaySeqid = new AtomicInteger();
        server = ScriptedAddServer.start((request, out) -> {
            if (request.call().type == TMessageType.ONEWAY) {
                onewaySeqid.set(request.call().seqid);
                return true;
            }
            if (request.connectionIndex() == 0) {
                out.write(beforeReply.frames(onewaySeqid.get()));
            }
            out.write(request.reply());
            return true;
        });
        return server.port();
    }

    /** Frames a misbehaving server sends about the oneway call with the given sequence id. */
    private interface OnewayAnswer {
        byte[] frames(int onewaySeqid) throws TException, IOException;
    }

    /** The UNKNOWN_METHOD exception a libthrift server sends for a oneway call it cannot run. */
    /** The call fails as every refused reply fails it: a transport failure of type CORRUPTED_DATA. */
    private static void assertCorruptedData(ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ThriftTransportFailureException.class,
                e -> assertThat(e.getType()).isEqualTo(TTransportException.CORRUPTED_DATA));
    }

    private static byte[] onewayError(int seqid) throws TException, IOException {
        TMemoryBuffer body = new TMemoryBuffer(64);
        TBinaryProtocol writer = new TBinaryProtocol(body);
        writer.writeMessageBegin(new TMessage("zip", TMessageType.EXCEPTION, seqid));
        new TApplicationException(TApplicationException.UNKNOWN_METHOD, "Invalid method name: 'zip'").write(writer);
        writer.writeMessageEnd();
        return RawFrames.frame(body.getArray(), body.length());
    }
}
