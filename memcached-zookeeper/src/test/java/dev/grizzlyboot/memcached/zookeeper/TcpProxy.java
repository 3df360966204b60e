package dev.grizzlyboot.memcached.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP forwarder that a test can cut (close every connection and refuse new ones) and
 * restore on the same port: one client loses ZooKeeper while the others keep it.
 */
final class TcpProxy implements AutoCloseable {

    private final int targetPort;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;

    TcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = bind(0);
        this.port = listener.getLocalPort();
        acceptOn(listener);
    }

    String address() {
        return "127.0.0.1:" + port;
    }

    /** Closes every forwarded connection and stops listening, so reconnects are refused. */
    void cut() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        sockets.clear();
    }

    /** Listens again on the same port. */
    void restore() throws IOException {
        listener = bind(port);
        acceptOn(listener);
    }

    @Override
    public void close() throws IOException {
        cut();
    }

    private static ServerSocket bind(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private void acceptOn(ServerSocket server) {
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket inbound = server.accept();
                    Socket outbound = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                    sockets.add(inbound);
                    sockets.add(outbound);
                    pump(inbound, outbound);
                    pump(outbound, inbound);
                } catch (IOException e) {
                    // closed by cut(), or the target refused: the client sees a dropped connection
                }
            }
        }, "tcp-proxy-accept-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void pump(Socket from, Socket to) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-pump-" + port);
        pump.setDaemon(true);
        pump.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
