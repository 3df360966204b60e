package dev.grizzlyboot.benchmarks.thrift;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.grizzlyboot.thrift.ThriftProtocol;

/**
 * The least a thread-per-connection server can spend on an {@code echo} call: one blocking socket
 * and one thread per connection, as {@code TThreadPoolServer} has, and the reply made by rewriting
 * the request frame's bytes (message type, the payload's field id) instead of decoding it, running
 * a handler and encoding a reply. Not a server anyone should run: the benchmark compares the real
 * servers with it to show how much of a call is the loopback round trip and the kernel's wake-ups.
 * It answers {@code echo} in the binary (strict) and compact protocols and closes a connection on
 * anything else. Thread-safe; {@link #close()} stops it.
 */
final class EchoFloorServer implements AutoCloseable {
    private static final int MAX_FRAME = 16 * 1024 * 1024;
    private static final byte[] ECHO = {'e', 'c', 'h', 'o'};

    private final ThriftProtocol protocol;
    private final ServerSocket listening;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    EchoFloorServer(ThriftProtocol protocol) throws IOException {
        this.protocol = protocol;
        listening = new ServerSocket(0, 256, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "echo-floor-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listening.getLocalPort();
    }

    private void accept() {
        while (!listening.isClosed()) {
            Socket socket;
            try {
                socket = listening.accept();
                socket.setTcpNoDelay(true);
            } catch (IOException e) {
                return;
            }
            open.add(socket);
            Thread serving = new Thread(() -> serve(socket), "echo-floor-connection");
            serving.setDaemon(true);
            serving.start();
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64 * 1024));
            byte[] frame = new byte[8192];
            byte[] reply = new byte[8193];
            while (true) {
                int length = in.readInt();
                if (length <= 0 || length > MAX_FRAME) {
                    return;
                }
                if (frame.length < length) {
                    frame = new byte[length];
                    reply = new byte[length + 1];
                }
                in.readFully(frame, 0, length);
                int replyLength = protocol == ThriftProtocol.COMPACT
                        ? compactReply(frame, length, reply) : binaryReply(frame, length, reply);
                if (replyLength < 0) {
                    return;
                }
                out.writeInt(replyLength);
                out.write(reply, 0, replyLength);
                out.flush();
            }
        } catch (IOException e) {
            // The client went away or the server closed; either way the connection ends.
        } finally {
            open.remove(socket);
        }
    }

    /**
     * Binary (strict): the version word's type byte goes from CALL (1) to REPLY (2) and the payload
     * field's id from 1 (the argument) to 0 (the result); every other byte stays. -1 if not an echo call.
     */
    static int binaryReply(byte[] frame, int length, byte[] reply) {
        if (length < 15 || frame[0] != (byte) 0x80 || frame[1] != 1 || frame[3] != 1) {
            return -1;
        }
        int nameLength = (frame[4] & 0xff) << 24 | (frame[5] & 0xff) << 16 | (frame[6] & 0xff) << 8 | frame[7] & 0xff;
        int field = 8 + nameLength + 4;
        if (nameLength != ECHO.length || !isEcho(frame, 8) || field + 3 > length
                || frame[field] != 11 || frame[field + 1] != 0 || frame[field + 2] != 1) {
            return -1;
        }
        System.arraycopy(frame, 0, reply, 0, length);
        reply[3] = 2;
        reply[field + 2] = 0;
        return length;
    }

    /**
     * Compact: the type nibble goes from CALL (1) to REPLY (2); the argument's field header (id 1 as
     * a delta) becomes the result's (id 0, which the compact protocol writes as a type byte and a
     * zig-zag id), one byte longer. -1 if not an echo call.
     */
    static int compactReply(byte[] frame, int length, byte[] reply) {
        if (length < 9 || frame[0] != (byte) 0x82 || frame[1] != 0x21) {
            return -1;
        }
        int at = skipVarint(frame, 2, length);
        if (at < 0 || at >= length || frame[at] != ECHO.length || !isEcho(frame, at + 1)) {
            return -1;
        }
        int field = at + 1 + ECHO.length;
        if (field >= length || frame[field] != 0x18) {
            return -1;
        }
        System.arraycopy(frame, 0, reply, 0, field);
        reply[1] = 0x41;
        reply[field] = 0x08;
        reply[field + 1] = 0;
        System.arraycopy(frame, field + 1, reply, field + 2, length - field - 1);
        return length + 1;
    }

    private static boolean isEcho(byte[] frame, int at) {
        for (int i = 0; i < ECHO.length; i++) {
            if (at + i >= frame.length || frame[at + i] != ECHO[i]) {
                return false;
            }
        }
        return true;
    }

    private static int skipVarint(byte[] frame, int at, int length) {
        for (int i = at; i < length && i < at + 5; i++) {
            if ((frame[i] & 0x80) == 0) {
                return i + 1;
            }
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        listening.close();
        for (Socket socket : open) {
            socket.close();
        }
    }
}
