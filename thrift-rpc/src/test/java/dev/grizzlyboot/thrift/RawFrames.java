package dev.grizzlyboot.thrift;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.shared.SharedService;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;

/** Hand-made bytes on a plain socket, for tests that must send what no Thrift client would. */
final class RawFrames {
    private RawFrames() {
    }

    /** A framed binary-protocol {@code add(a, b)} request. */
    static byte[] addRequest(int seqId, int a, int b) throws TException, IOException {
        TMemoryBuffer body = new TMemoryBuffer(64);
        TBinaryProtocol protocol = new TBinaryProtocol(body);
        protocol.writeMessageBegin(new TMessage("add", TMessageType.CALL, seqId));
        new Calculator.add_args(a, b).write(protocol);
        protocol.writeMessageEnd();
        return frame(body.getArray(), body.length());
    }

    /** A framed binary-protocol {@code getStruct(key)} request: a few bytes, whatever the reply's size. */
    static byte[] getStructRequest(int seqId, int key) throws TException, IOException {
        TMemoryBuffer body = new TMemoryBuffer(64);
        TBinaryProtocol protocol = new TBinaryProtocol(body);
        protocol.writeMessageBegin(new TMessage("getStruct", TMessageType.CALL, seqId));
        new SharedService.getStruct_args(key).write(protocol);
        protocol.writeMessageEnd();
        return frame(body.getArray(), body.length());
    }

    /** A framed binary-protocol {@code echo(payload)} request. */
    static byte[] echoRequest(int seqId, byte[] payload) throws TException, IOException {
        TMemoryBuffer body = new TMemoryBuffer(payload.length + 64);
        TBinaryProtocol protocol = new TBinaryProtocol(body);
        protocol.writeMessageBegin(new TMessage("echo", TMessageType.CALL, seqId));
        new Calculator.echo_args(ByteBuffer.wrap(payload)).write(protocol);
        protocol.writeMessageEnd();
        return frame(body.getArray(), body.length());
    }

    /**
     * Writes framed binary {@code echo} requests with sequence ids 1 to {@code calls} in a row on
     * another thread, without reading; the future fails if a write does.
     */
    static CompletableFuture<Void> pipelineEchoRequests(Socket socket, int calls, IntFunction<byte[]> payload) {
        return CompletableFuture.runAsync(() -> {
            try {
                OutputStream out = socket.getOutputStream();
                for (int seqId = 1; seqId <= calls; seqId++) {
                    out.write(echoRequest(seqId, payload.apply(seqId)));
                }
                out.flush();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    static byte[] frame(byte[] body, int length) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DataOutputStream data = new DataOutputStream(out);
        data.writeInt(length);
        data.write(body, 0, length);
        return out.toByteArray();
    }

    /** Reads one reply frame and returns its length, or -1 if the server closed the connection. */
    static int readReplyLength(Socket socket) throws IOException {
        byte[] reply = readReply(socket);
        return reply == null ? -1 : reply.length;
    }

    /** Reads one reply frame and returns its payload, or null if the server closed the connection. */
    static byte[] readReply(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] header = in.readNBytes(4);
        if (header.length < 4) {
            return null;
        }
        int length = ((header[0] & 0xff) << 24) | ((header[1] & 0xff) << 16) | ((header[2] & 0xff) << 8) | (header[3] & 0xff);
        byte[] payload = in.readNBytes(length);
        return payload.length < length ? null : payload;
    }

    /**
     * Reads one binary-protocol reply frame and its message header, and returns the sequence id and
     * the protocol positioned at the result struct; throws if the server closed the connection or
     * sent something other than a reply.
     */
    static Reply readBinaryReply(Socket socket) throws IOException, TException {
        byte[] reply = readReply(socket);
        if (reply == null) {
            throw new IOException("the server closed the connection");
        }
        TBinaryProtocol in = new TBinaryProtocol(new TMemoryInputTransport(reply));
        TMessage message = in.readMessageBegin();
        if (message.type != TMessageType.REPLY) {
            throw new IOException("message type " + message.type + " where a reply was expected");
        }
        return new Reply(message.seqid, in);
    }

    /** A reply's sequence id and the protocol that reads its result struct. */
    record Reply(int seqId, TBinaryProtocol result) {
    }

    /** True once the server has closed the connection (a read sees end of stream or a reset). */
    static boolean closedByServer(Socket socket) {
        try {
            socket.setSoTimeout(50);
            return socket.getInputStream().read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
