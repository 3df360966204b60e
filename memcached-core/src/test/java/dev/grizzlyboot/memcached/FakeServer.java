package dev.grizzlyboot.memcached;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny binary-protocol server for faults real memcached never produces. Each accepted
 * connection reads requests and answers each with whatever {@link Behaviour} the test chose for
 * that connection (numbered from 0).
 */
final class FakeServer implements AutoCloseable {

    /** How one connection answers one request. */
    interface Behaviour {
        /** Writes the answer to a request with this opaque; returns false to close the connection. */
        boolean answer(OutputStream out, int opaque) throws IOException;
    }

    /** A proper "key not found" answer: what a healthy server says to GET on a missing key. */
    static final Behaviour MISS = (out, opaque) -> {
        out.write(header(0x01, opaque, 0));
        return true;
    };

    /** Hangs up on every connection at once, before reading anything. */
    static final Behaviour HANG_UP = (out, opaque) -> false;

    /**
     * Answers nothing until the {@code count}-th request, then behaves as {@code behaviour}: so a
     * test's requests are all on the connection before the fault, however slowly they are sent.
     */
    static Behaviour afterRequests(int count, Behaviour behaviour) {
        int[] seen = {0};
        return (out, opaque) -> ++seen[0] < count || behaviour.answer(out, opaque);
    }

    private final ServerSocket socket;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<String> receivedKeys = new CopyOnWriteArrayList<>();

    FakeServer(java.util.function.IntFunction<Behaviour> behaviourForConnection) throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket accepted = socket.accept();
                    Behaviour behaviour = behaviourForConnection.apply(connections.getAndIncrement());
                    Thread serve = new Thread(() -> serve(accepted, behaviour), "fake-memcached-conn");
                    serve.setDaemon(true);
                    serve.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "fake-memcached-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String address() {
        return "127.0.0.1:" + socket.getLocalPort();
    }

    int connectionsAccepted() {
        return connections.get();
    }

    /** The keys of every request read so far, on any connection, in order. */
    List<String> receivedKeys() {
        return receivedKeys;
    }

    /** A response header with the given status and opaque, followed by {@code bodyLength} body bytes the caller writes. */
    static byte[] header(int status, int opaque, int bodyLength) {
        byte[] header = new byte[24];
        header[0] = (byte) 0x81;
        header[6] = (byte) (status >>> 8);
        header[7] = (byte) status;
        header[8] = (byte) (bodyLength >>> 24);
        header[9] = (byte) (bodyLength >>> 16);
        header[10] = (byte) (bodyLength >>> 8);
        header[11] = (byte) bodyLength;
        header[12] = (byte) (opaque >>> 24);
        header[13] = (byte) (opaque >>> 16);
        header[14] = (byte) (opaque >>> 8);
        header[15] = (byte) opaque;
        return header;
    }

    /** The body length a 24-byte binary header gives (bytes 8–11). */
    static int bodyLength(byte[] header) {
        return (header[8] & 0xFF) << 24 | (header[9] & 0xFF) << 16 | (header[10] & 0xFF) << 8 | header[11] & 0xFF;
    }

    /** The opaque a 24-byte binary header carries (bytes 12–15). */
    static int opaque(byte[] header) {
        return (header[12] & 0xFF) << 24 | (header[13] & 0xFF) << 16 | (header[14] & 0xFF) << 8 | header[15] & 0xFF;
    }

    /** Reads one request and returns its opaque. */
    static int readRequest(DataInputStream in) throws IOException {
        byte[] header = new byte[24];
        in.readFully(header);
        in.readFully(new byte[bodyLength(header)]);
        return opaque(header);
    }

    /** A whole response: header (with this opcode and key length), key, then value. */
    static byte[] response(int opcode, int status, int opaque, byte[] key, byte[] value) {
        byte[] response = new byte[24 + key.length + value.length];
        System.arraycopy(header(status, opaque, key.length + value.length), 0, response, 0, 24);
        response[1] = (byte) opcode;
        response[2] = (byte) (key.length >>> 8);
        response[3] = (byte) key.length;
        System.arraycopy(key, 0, response, 24, key.length);
        System.arraycopy(value, 0, response, 24 + key.length, value.length);
        return response;
    }

    private void serve(Socket connection, Behaviour behaviour) {
        try (connection) {
            if (behaviour == HANG_UP) {
                return;
            }
            DataInputStream in = new DataInputStream(connection.getInputStream());
            OutputStream out = connection.getOutputStream();
            byte[] header = new byte[24];
            while (true) {
                in.readFully(header);
                int bodyLength = bodyLength(header);
                int opaque = opaque(header);
                int keyLength = ((header[2] & 0xFF) << 8) | (header[3] & 0xFF);
                byte[] body = in.readNBytes(bodyLength);
                receivedKeys.add(new String(body, header[4] & 0xFF, keyLength, StandardCharsets.UTF_8));
                if (!behaviour.answer(out, opaque)) {
                    out.flush();
                    return;
                }
                out.flush();
            }
        } catch (IOException e) {
            // the client went away; nothing to do
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
