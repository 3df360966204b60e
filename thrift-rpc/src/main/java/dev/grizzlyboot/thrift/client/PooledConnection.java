package dev.grizzlyboot.thrift.client;

import dev.grizzlyboot.thrift.transport.ClientFrameTransport;
import org.apache.thrift.protocol.TProtocol;

/**
 * One open connection with its transport and protocol, owned by a {@link ServerPool}. Used by one
 * call at a time: the pool hands it out and takes it back, noting when it was last given back.
 */
final class PooledConnection {
    final ClientFrameTransport transport;
    final TProtocol protocol;
    private volatile long idleSinceNanos = System.nanoTime();

    PooledConnection(ClientFrameTransport transport) {
        this.transport = transport;
        this.protocol = transport.protocol();
    }

    void markIdle() {
        idleSinceNanos = System.nanoTime();
    }

    /** True once the connection has been idle for at least {@code idleTimeoutNanos}; never for 0. */
    boolean idleLongerThan(long idleTimeoutNanos) {
        return idleTimeoutNanos > 0 && System.nanoTime() - idleSinceNanos >= idleTimeoutNanos;
    }

    boolean isOpen() {
        return transport.isOpen();
    }

    /** Reads what the server sent while the connection sat idle, and tells whether it can still carry a call. */
    boolean readyForCall() {
        return transport.readIdleInput();
    }

    void close() {
        transport.close();
    }
}
