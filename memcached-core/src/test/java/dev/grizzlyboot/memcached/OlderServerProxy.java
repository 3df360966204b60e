package dev.grizzlyboot.memcached;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real memcached made to answer as one older than the commands {@code TOUCH}, {@code GAT} and
 * {@code GATQ} (memcached 1.4.7 and before): a proxy on loopback that forwards everything else, and
 * answers those as such a server did, in their place among the other answers: status
 * {@code UNKNOWN_COMMAND} with the request's opcode and opaque and the body "Unknown command". It
 * sends memcached a {@code NOOP} with the same opaque instead and rewrites that answer, so the
 * order of answers on the connection stays memcached's own. Text connections are forwarded as
 * they are.
 */
final class OlderServerProxy implements AutoCloseable {

    private static final int REQUEST_MAGIC = 0x80;
    private static final int NOOP = 0x0a;
    private static final Set<Integer> UNKNOWN_OPCODES = Set.of(0x1c, 0x1d, 0x1e);
    private static final int UNKNOWN_COMMAND = 0x0081;
    private static final byte[] UNKNOWN_COMMAND_TEXT = "Unknown command".getBytes(StandardCharsets.US_ASCII);

    /** A request this server does not know, whose NOOP stand-in's answer is rewritten. */
    private record Refused(int opcode, int opaque) {
    }

    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger closedByClient = new AtomicInteger();

    OlderServerProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "older-memcached-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** Connections the client opened to this server so far. */
    int connectionsAccepted() {
        return connections.get();
    }

    /** Connections the client closed so far. */
    int connectionsClosedByClient() {
        return closedByClient.get();
    }

    /** Requests answered with {@code UNKNOWN_COMMAND} so far. */
    int commandsRefused() {
        return refused.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(server);
                connections.incrementAndGet();
                start(() -> relay(client, server), "older-memcached-requests");
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Requests from the client to memcached; decides, from the first byte, whether the connection is binary. */
    private void relay(Socket client, Socket server) {
        try (client; server) {
            InputStream in = client.getInputStream();
            OutputStream toServer = server.getOutputStream();
            int first = in.read();
            if (first < 0) {
                closedByClient.incrementAndGet();
                return;
            }
            if (first != REQUEST_MAGIC) {
                toServer.write(first);
                start(() -> copy(server, client), "older-memcached-text-answers");
                in.transferTo(toServer);
                closedByClient.incrementAndGet();
                return;
            }
            Queue<Refused> replaced = new ConcurrentLinkedQueue<>();
            start(() -> answers(server, client, replaced), "older-memcached-answers");
            DataInputStream requests = new DataInputStream(in);
            byte[] header = new byte[24];
            header[0] = (byte) first;
            requests.readFully(header, 1, 23);
            while (true) {
                byte[] body = requests.readNBytes(FakeServer.bodyLength(header));
                int opcode = header[1] & 0xFF;
                if (UNKNOWN_OPCODES.contains(opcode)) {
                    replaced.add(new Refused(opcode, FakeServer.opaque(header)));
                    byte[] noop = new byte[24];
                    noop[0] = (byte) REQUEST_MAGIC;
                    noop[1] = NOOP;
                    System.arraycopy(header, 12, noop, 12, 4);
                    toServer.write(noop);
                } else {
                    toServer.write(header);
                    toServer.write(body);
                }
                toServer.flush();
                requests.readFully(header);
            }
        } catch (EOFException e) {
            closedByClient.incrementAndGet();
        } catch (IOException e) {
            // Either side went away; closing both ends the other direction too.
        }
    }

    /** memcached's binary answers to the client, each NOOP that stands for a refused command rewritten. */
    private void answers(Socket server, Socket client, Queue<Refused> replaced) {
        try (client; server) {
            DataInputStream in = new DataInputStream(server.getInputStream());
            OutputStream out = client.getOutputStream();
            byte[] header = new byte[24];
            while (true) {
                in.readFully(header);
                byte[] body = in.readNBytes(FakeServer.bodyLength(header));
                Refused next = replaced.peek();
                if ((header[1] & 0xFF) == NOOP && next != null && next.opaque() == FakeServer.opaque(header)) {
                    replaced.poll();
                    refused.incrementAndGet();
                    out.write(FakeServer.response(next.opcode(), UNKNOWN_COMMAND, next.opaque(), new byte[0], UNKNOWN_COMMAND_TEXT));
                } else {
                    out.write(header);
                    out.write(body);
                }
                out.flush();
            }
        } catch (IOException e) {
            // Either side went away.
        }
    }

    private static void copy(Socket from, Socket to) {
        try (from; to) {
            from.getInputStream().transferTo(to.getOutputStream());
        } catch (IOException e) {
            // Either side went away.
        }
    }

    private static void start(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
