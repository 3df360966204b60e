package dev.grizzlyboot.thrift.transport;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;

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
}
