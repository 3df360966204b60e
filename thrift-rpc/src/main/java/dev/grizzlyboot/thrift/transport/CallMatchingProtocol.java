package dev.grizzlyboot.thrift.transport;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TTransportException;

/**
 * The protocol a client call writes and reads through: it sends each message with the sequence id
 * its connection's {@link ReplyMatcher} assigns, and gives the generated client back the sequence id
 * it chose, so the generated client's own check passes only for the reply the matcher paired with
 * the call. Binary fields of the reply are the caller's own ({@link OwnedBinaryProtocol}). Used by
 * one call at a time, like its transport.
 */
final class CallMatchingProtocol extends OwnedBinaryProtocol {
    private final ClientFrameTransport transport;
    private int callerSeqid;

    CallMatchingProtocol(TProtocol wire, ClientFrameTransport transport) {
        super(wire, transport);
        this.transport = transport;
    }

    @Override
    public void writeMessageBegin(TMessage message) throws TException {
        callerSeqid = message.seqid;
        super.writeMessageBegin(new TMessage(message.name, message.type, transport.register(message.name, message.type)));
    }

    @Override
    public TMessage readMessageBegin() throws TException {
        TMessage reply = super.readMessageBegin();
        return new TMessage(reply.name, reply.type, callerSeqid);
    }

    /**
     * The matcher vouches only for the first message of a frame: anything after it in the same
     * frame would be read by the connection's next call as its reply, unmatched.
     */
    @Override
    public void readMessageEnd() throws TException {
        super.readMessageEnd();
        int unread = transport.unreadInFrame();
        if (unread > 0) {
            transport.close();
            throw new TTransportException(TTransportException.CORRUPTED_DATA,
                    "reply frame holds " + unread + " bytes after its message, connection closed");
        }
    }
}
