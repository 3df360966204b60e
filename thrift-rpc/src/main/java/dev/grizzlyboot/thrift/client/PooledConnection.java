package dev.grizzlyboot.thrift.client;

import dev.grizzlyboot.thrift.transport.ClientFrameTransport;
import org.apache.thrift.protocol.TProtocol;

/**
 * One open connection with its transport and protocol, owned by a {@link ServerPool}. Used by one
 * call at a time: the pool hands it out and takes it back.
 */
final class PooledConnection {
    final ClientFrameTransport transport;
    final TProtocol protocol;

    PooledConnection(ClientFrameTransport transport, TProtocol protocol) {
        this.transport = transport;
        this.protocol = protocol;
    }

    boolean isOpen() {
        return transport.isOpen();
    }

    void close() {
        transport.close();
    }
}
