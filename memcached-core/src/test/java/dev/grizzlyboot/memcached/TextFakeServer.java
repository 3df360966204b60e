package dev.grizzlyboot.memcached;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * A tiny server for text-protocol bulk reads that real memcached never answers wrongly: each
 * {@code get}/{@code gets} line read on a text connection is answered with the bytes the test's
 * {@link Answer} gives, written {@code chunk} bytes at a time (so that the client sees partial
 * answers). Binary connections (first byte 0x80) are accepted and left unanswered; the client's
 * check that a text connection is answered ({@code get} of its check key) gets memcached's miss
 * and is not one of the bulk reads the {@link Answer} sees.
 */
final class TextFakeServer implements AutoCloseable {

    /** The bytes to answer the {@code command}-th bulk read (from 0, over all connections) of these keys with; {@code null} hangs up. */
    interface Answer {
        byte[] answer(int command, String verb, List<String> keys) throws IOException;
    }

    /** The key of the client's text protocol check (internal.connection.TextProtocolCheck). */
    private static final String PROTOCOL_CHECK_KEY = "grizzly-boot:text-protocol-check";

    private final ServerSocket socket;
    private final AtomicInteger textConnections = new AtomicInteger();
    private final AtomicInteger commands = new AtomicInteger();

    TextFakeServer(int chunk, Answer answer) throws IOException {
        this(chunk, answer, connection -> false);
    }

    /**
     * @param hangUpMidCheck for which text connections (numbered from 0 as accepted) the check is
     *                       answered with half of memcached's miss, {@code EN}, and the connection
     *                       then closed, as by a server dying while it answers
     */
    TextFakeServer(int chunk, Answer answer, IntPredicate hangUpMidCheck) throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket accepted = socket.accept();
                    Thread serve = new Thread(() -> serve(accepted, chunk, answer, hangUpMidCheck), "fake-text-memcached-conn");
                    serve.setDaemon(true);
                    serve.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "fake-text-memcached-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String address() {
        return "127.0.0.1:" + socket.getLocalPort();
    }

    int textConnectionsAccepted() {
        return textConnections.get();
    }

    /** {@code VALUE key flags length} and the value, as memcached answers a hit. */
    static byte[] value(String key, int flags, String value) {
        return ("VALUE " + key + " " + Integer.toUnsignedString(flags) + " " + value.length() + "\r\n" + value + "\r\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    static byte[] join(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private void serve(Socket connection, int chunk, Answer answer, IntPredicate hangUpMidCheck) {
        try (connection) {
            InputStream in = new BufferedInputStream(connection.getInputStream());
            in.mark(1);
            if (in.read() == 0x80) {
                in.transferTo(OutputStream.nullOutputStream());
                return;
            }
            in.reset();
            boolean hangUp = hangUpMidCheck.test(textConnections.getAndIncrement());
            OutputStream out = connection.getOutputStream();
            String line;
            while ((line = readLine(in)) != null) {
                List<String> words = Arrays.asList(line.split(" "));
                if (words.contains(PROTOCOL_CHECK_KEY) && hangUp) {
                    out.write(ascii("EN"));
                    out.flush();
                    return;
                }
                if (words.contains(PROTOCOL_CHECK_KEY)) {
                    // The check each text connection makes before its first bulk read: a miss, as memcached answers it.
                    out.write(ascii("END\r\n"));
                    out.flush();
                    continue;
                }
                byte[] reply = answer.answer(commands.getAndIncrement(), words.get(0), words.subList(1, words.size()));
                if (reply == null) {
                    return;
                }
                for (int at = 0; at < reply.length; at += chunk) {
                    out.write(reply, at, Math.min(chunk, reply.length - at));
                    out.flush();
                }
            }
        } catch (IOException e) {
            // the client went away; nothing to do
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
