package dev.grizzlyboot.thrift.transport;

import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.thrift.observation.CallObserver;
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
    /** Null when no observer is set. */
    final CallRecorder recorder;
    private final AtomicInteger state = new AtomicInteger(IDLE);

    ServerSession(Connection<?> connection, TConfiguration configuration, TProtocolFactory protocols,
                  CallObserver observer, String defaultService) throws TTransportException {
        transport = new ServerFrameTransport(connection, configuration);
        TProtocol wireIn = protocols.getProtocol(transport);
        TProtocol wireOut = protocols.getProtocol(transport);
        if (observer == null) {
            recorder = null;
            in = wireIn;
            out = wireOut;
        } else {
            recorder = new CallRecorder(observer, defaultService, wireIn, wireOut);
            in = recorder.in;
            out = recorder.out;
        }
    }

    /** Tells the observer, if any, how the call that just ran ended. */
    void recordEnd(Throwable error) {
        if (recorder != null) {
            recorder.ended(error);
        }
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
