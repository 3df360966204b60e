package dev.grizzlyboot.thrift.transport;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransportException;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;

/**
 * The server side of one connection: reads the request frame being processed and writes the
 * reply to the connection, straight to its write queue on plain TCP ({@link FrameWriteQueue}) and
 * through the filter chain otherwise (TLS). Used by one call at a time, as Grizzly never processes
 * two reads of one connection at once, a queued connection's calls run one after another, and a
 * worker holding a connection is its only reader.
 */
final class ServerFrameTransport extends FrameTransport {
    /** Null when replies go through the filter chain. */
    private final FrameWriteQueue direct;
    /** Null without an idle timeout or when replies go through the chain, whose filter restarts it. */
    private final IdleClock idleClock;

    ServerFrameTransport(Connection<?> connection, TConfiguration configuration, FrameWriteQueue direct,
                         IdleClock idleClock) throws TTransportException {
        super(connection, configuration);
        this.direct = direct;
        this.idleClock = direct != null ? idleClock : null;
    }

    @Override
    Buffer awaitFrame() throws TTransportException {
        // A request is always one whole frame: reading past it means the message was truncated.
        throw new TTransportException(TTransportException.END_OF_FILE, "read past the end of the request frame");
    }

    @Override
    void send(byte[] frame, int length) {
        if (direct == null) {
            connection.write(payload(frame, length));
            return;
        }
        direct.write(frame, length, null);
        if (idleClock != null) {
            idleClock.restart(connection);
        }
    }
}
