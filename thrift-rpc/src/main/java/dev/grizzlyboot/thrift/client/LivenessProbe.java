package dev.grizzlyboot.thrift.client;

import java.time.Duration;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.transport.TTransportException;

/**
 * Tells whether a server's process is answering, not just whether its kernel accepts connections
 * (a stopped or hung process still completes TCP handshakes). It calls a method no service has;
 * any Thrift server answers that at once, with an "unknown method" error or, for a multiplexed
 * processor, by closing the connection. Stateless.
 */
final class LivenessProbe {
    /** Cannot collide with an IDL method: Thrift identifiers have no '#'. */
    static final String METHOD = "#grizzlyboot-liveness-probe";

    private LivenessProbe() {
    }

    /** Sends the probe on a fresh connection and waits up to {@code timeout} for any answer. */
    static boolean answers(PooledConnection connection, Duration timeout) {
        TProtocol protocol = connection.protocol;
        try {
            connection.transport.beginCall(timeout);
            protocol.writeMessageBegin(new TMessage(METHOD, TMessageType.CALL, 0));
            protocol.writeStructBegin(new TStruct("args"));
            protocol.writeFieldStop();
            protocol.writeStructEnd();
            protocol.writeMessageEnd();
            protocol.getTransport().flush();
            protocol.readMessageBegin();
            return true;
        } catch (TTransportException e) {
            // Only the server closing the connection after reading the probe counts as an answer.
            return e.getType() == TTransportException.END_OF_FILE && connection.transport.requestSent();
        } catch (TException e) {
            // A reply that does not parse is still a reply: the process is running.
            return true;
        }
    }
}
