package dev.grizzlyboot.thrift;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;

/**
 * A Thrift server on a plain loopback socket that reads framed binary {@code add} requests and
 * lets a test script what goes back: tampered headers, replies in pieces, silence, a close. Each
 * accepted connection is served by its own thread.
 */
final class ScriptedAddServer implements AutoCloseable {
    /** One request as the server read it. */
    record Request(TMessage call, int sum, int connectionIndex, int requestIndex) {
        /** The framed reply a correct server would send. */
        byte[] reply() throws TException, IOException {
            return reply(new TMessage(call.name, TMessageType.REPLY, call.seqid), sum);
        }

        /** A framed {@code add} reply with any header and result. */
        static byte[] reply(TMessage header, int sum) throws TException, IOException {
            TMemoryBuffer body = new TMemoryBuffer(64);
            TBinaryProtocol writer = new TBinaryProtocol(body);
            writer.writeMessageBegin(header);
            new Calculator.add_result().setSuccess(sum).write(writer);
            writer.writeMessageEnd();
            return RawFrames.frame(body.getArray(), body.length());
        }
    }

    /** What the server does with one request. */
    interface Script {
        /** Writes (or withholds) the answer; returns false to close the connection afterwards. */
        boolean answer(Request request, OutputStream out) throws IOException, TException, InterruptedException;
    }

    /** Requests read so far, over all connections. */
    final AtomicInteger requests = new AtomicInteger();
    /** Connections the client closed while the server waited for a request. */
    final AtomicInteger closedByClient = new AtomicInteger();
    /** Connections ended for any reason. */
    final AtomicInteger closed = new AtomicInteger();
    private final ServerSocket socket;
    private final Script script;

    private ScriptedAddServer(Script script) throws IOException {
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.script = script;
    }

    static ScriptedAddServer start(Script script) throws IOException {
        ScriptedAddServer server = new ScriptedAddServer(script);
        Thread acceptor = new Thread(server::accept, "scripted-thrift-server");
        acceptor.setDaemon(true);
        acceptor.start();
        return server;
    }

    int port() {
        return socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private void accept() {
        int connection = 0;
        while (!socket.isClosed()) {
            try {
                Socket accepted = socket.accept();
                int index = connection++;
                Thread handler = new Thread(() -> serve(accepted, index));
                handler.setDaemon(true);
                handler.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket connection, int connectionIndex) {
        try (connection) {
            connection.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(connection.getInputStream());
            OutputStream out = connection.getOutputStream();
            for (int request = 0; ; request++) {
                int length;
                try {
                    length = in.readInt();
                } catch (IOException endOfStream) {
                    closedByClient.incrementAndGet();
                    return;
                }
                TBinaryProtocol reader = new TBinaryProtocol(new TMemoryInputTransport(in.readNBytes(length)));
                TMessage call = reader.readMessageBegin();
                Calculator.add_args args = new Calculator.add_args();
                args.read(reader);
                requests.incrementAndGet();
                if (!script.answer(new Request(call, args.getNum1() + args.getNum2(), connectionIndex, request), out)) {
                    return;
                }
                out.flush();
            }
        } catch (IOException | TException | InterruptedException e) {
            // The test sees the effect through the client; a broken socket ends this connection.
        } finally {
            closed.incrementAndGet();
        }
    }
}
