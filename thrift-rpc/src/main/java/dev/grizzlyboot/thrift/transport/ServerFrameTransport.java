package dev.grizzlyboot.thrift.transport;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransportException;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;

/**
 * The server side of one connection: reads the request frame being processed and writes the
 * reply to the connection. Used by one call at a time, as Grizzly never processes two reads of
 * one connection at once.
 */
final class ServerFrameTransport extends FrameTransport {

    ServerFrameTransport(Connection<?> connection, TConfiguration configuration) throws TTransportException {
        super(connection, configuration);
    }

    @Override
    Buffer awaitFrame() throws TTransportException {
        // A request is always one whole frame: reading past it means the message was truncated.
        throw new TTransportException(TTransportException.END_OF_FILE, "read past the end of the request frame");
    }

    @Override
    void send(byte[] frame, int length) {
        connection.write(payload(frame, length));
    }
}
