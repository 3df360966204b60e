package dev.grizzlyboot.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free ports on 127.0.0.1 (or another loopback address) for the servers test-support starts as child processes. */
final class LoopbackPorts {

    static final String LOOPBACK = "127.0.0.1";

    private LoopbackPorts() {
    }

    /** A port free at this moment; another process may still take it before the server binds, so callers retry. */
    static int free() {
        return free(LOOPBACK);
    }

    /** A port free at this moment on {@code host}, one of the loopback addresses (127.0.0.0/8). */
    static int free(String host) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
