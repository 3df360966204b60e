package dev.grizzlyboot.thrift.client;

import java.util.function.Function;

import dev.grizzlyboot.thrift.transport.ClientFrameTransport;
import org.apache.thrift.protocol.TProtocol;

/**
 * One open connection with its transport and protocol, owned by a {@link ServerPool}. Used by one
 * call at a time: the pool hands it out and takes it back, noting when it was last given back.
 * It keeps the generated client the last proxy built on it, so that calls through the same proxy
 * reuse it.
 */
final class PooledConnection {
    final ClientFrameTransport transport;
    final TProtocol protocol;
    private volatile long idleSinceNanos = System.nanoTime();
    private Object clientOwner;
    private Object client;

    PooledConnection(ClientFrameTransport transport) {
        this.transport = transport;
        this.protocol = transport.protocol();
    }

    /**
     * Returns the client {@code owner} had built on this connection's protocol, or builds one with
     * {@code factory} and keeps it in place of the one kept before.
     */
    Object client(Object owner, Function<TProtocol, Object> factory) {
        if (clientOwner != owner) {
            client = factory.apply(protocol);
            clientOwner = owner;
        }
        return client;
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
