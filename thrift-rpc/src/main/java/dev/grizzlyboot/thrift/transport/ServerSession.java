package dev.grizzlyboot.thrift.transport;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TTransportException;
import org.glassfish.grizzly.Connection;

/**
 * Per-connection server state: the transport and protocols reused for every call, and whether a
 * call is running. The state moves IDLE to BUSY and back for each call; a drain moves an IDLE
 * session to CLOSING so a call can never start on a connection that is being closed.
 */
final class ServerSession {
    private static final int IDLE = 0;
    private static final int BUSY = 1;
    private static final int CLOSING = 2;

    final ServerFrameTransport transport;
    final TProtocol in;
    final TProtocol out;
    private final AtomicInteger state = new AtomicInteger(IDLE);

    ServerSession(Connection<?> connection, TConfiguration configuration, TProtocolFactory protocols)
            throws TTransportException {
        transport = new ServerFrameTransport(connection, configuration);
        in = protocols.getProtocol(transport);
        out = protocols.getProtocol(transport);
    }

    /** Returns false when the connection is closing and the call must not run. */
    boolean beginCall() {
        return state.compareAndSet(IDLE, BUSY);
    }

    void endCall() {
        state.compareAndSet(BUSY, IDLE);
    }

    /** Returns true if the session was idle and is now closing; false while a call runs. */
    boolean closeIfIdle() {
        return state.compareAndSet(IDLE, CLOSING) || state.get() == CLOSING;
    }
}
