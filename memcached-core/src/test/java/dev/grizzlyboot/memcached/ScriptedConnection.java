package dev.grizzlyboot.memcached;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A loopback listener whose one accepted connection the test drives by hand: it reads the
 * client's requests and writes whatever bytes, in whatever pieces, it wants to check. For scripted
 * exchanges; {@link FakeServer} answers request by request on its own threads.
 */
final class ScriptedConnection implements AutoCloseable {

    private final ServerSocket listener;
    private final ExecutorService acceptor = Executors.newSingleThreadExecutor();
    private final Future<Socket> accepted;

    private ScriptedConnection() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        accepted = acceptor.submit(listener::accept);
    }

    /** Starts listening on a free loopback port. */
    static ScriptedConnection listen() throws IOException {
        return new ScriptedConnection();
    }

    /** {@code 127.0.0.1:port}, for the client's server list. */
    String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** The client's connection, once it has connected (at most 10 s). */
    Socket accept() throws Exception {
        return accepted.get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException {
        acceptor.shutdownNow();
        listener.close();
    }
}
