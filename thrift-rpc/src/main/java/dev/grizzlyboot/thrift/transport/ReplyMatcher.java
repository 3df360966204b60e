package dev.grizzlyboot.thrift.transport;

import org.apache.thrift.TApplicationException;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;
import org.glassfish.grizzly.Buffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pairs each reply frame of one client connection with the call waiting for it, by sequence id,
 * method name and message type. It numbers every outgoing message itself, so sequence ids are
 * unique per connection whichever generated client wrote them. A reply that matches no call is
 * refused, except the error reply a server may send to a oneway call (libthrift servers answer a
 * oneway call to an unknown method with UNKNOWN_METHOD): that one is logged and dropped.
 *
 * <p>The connection's one reader at a time (the calling thread, the pool's monitor while the
 * connection is idle, or the selector thread for a virtual calling thread) classifies replies, reusing one header reader for all of them; registering
 * and classifying are synchronized on this object and never block inside it.
 */
final class ReplyMatcher {
    private static final Logger log = LoggerFactory.getLogger(ReplyMatcher.class);

    enum Verdict {
        /** The reply of the waiting call. */
        DELIVER,
        /** A oneway call's error reply, already logged. */
        DROP,
        /** No call is waiting for this frame: the connection is out of step. */
        REFUSE
    }

    private final TMemoryInputTransport header;
    private final TProtocol headerReader;
    private int lastSeqid;
    /**
     * The sequence id of the last reply taken. A server answers a connection's requests in order,
     * and a two-way call is sent only after the previous one was answered (or its connection
     * closed, or its request refused unsent), so every message sent after this one, other than the
     * waiting call, is a oneway call: an error reply with such a sequence id is that call's,
     * however many came before it.
     */
    private int lastAnswered;
    private String expectedMethod;
    private int expectedSeqid;
    private String refusal;

    ReplyMatcher(TProtocolFactory protocols, TConfiguration configuration) throws TTransportException {
        this.header = new TMemoryInputTransport(configuration);
        this.headerReader = protocols.getProtocol(header);
    }

    /** Registers an outgoing message and returns the sequence id to send it with. */
    synchronized int register(String name, byte type) {
        int seqid = ++lastSeqid;
        if (type != TMessageType.ONEWAY) {
            expectedMethod = name;
            expectedSeqid = seqid;
        }
        return seqid;
    }

    /** Forgets the waiting call, for example after it timed out. */
    synchronized void abandon() {
        expectedMethod = null;
    }

    /** Decides what a received frame is; call {@link #refusal()} for the reason of a refusal. */
    Verdict classify(Buffer frame, Object peer) {
        TProtocol reader = headerReader;
        TMessage reply;
        try {
            view(frame);
            reader.reset();
            reply = reader.readMessageBegin();
        } catch (TException | RuntimeException e) {
            return refuse("unreadable reply: " + e);
        }
        synchronized (this) {
            if (expectedMethod != null && reply.seqid == expectedSeqid && sameMethod(reply.name)
                    && (reply.type == TMessageType.REPLY || reply.type == TMessageType.EXCEPTION)) {
                expectedMethod = null;
                lastAnswered = reply.seqid;
                return Verdict.DELIVER;
            }
            if (reply.type == TMessageType.EXCEPTION && isOnewayAwaitingReply(reply.seqid)) {
                lastAnswered = reply.seqid;
                logOnewayFailure(reader, reply, peer);
                return Verdict.DROP;
            }
            return refuse("expected " + (expectedMethod == null ? "no reply"
                    : "the reply to " + expectedMethod + " (seqid " + expectedSeqid + ")")
                    + ", received " + typeName(reply.type) + " " + reply.name + " (seqid " + reply.seqid + ")");
        }
    }

    /**
     * True if {@code seqid} was sent after the last reply taken and is not the waiting call's:
     * compared by difference, so that the window stays right when sequence ids wrap around.
     */
    private boolean isOnewayAwaitingReply(int seqid) {
        return seqid - lastAnswered > 0 && lastSeqid - seqid >= 0
                && (expectedMethod == null || expectedSeqid - seqid > 0);
    }

    synchronized String refusal() {
        return refusal;
    }

    private synchronized Verdict refuse(String reason) {
        refusal = reason;
        expectedMethod = null;
        return Verdict.REFUSE;
    }

    /** A multiplexed request is named {@code service:method}; servers answer with either name. */
    private boolean sameMethod(String replyName) {
        if (replyName.equals(expectedMethod)) {
            return true;
        }
        int separator = expectedMethod.indexOf(TMultiplexedProtocol.SEPARATOR);
        return separator >= 0 && expectedMethod.regionMatches(separator + 1, replyName, 0, replyName.length())
                && expectedMethod.length() - separator - 1 == replyName.length();
    }

    private static void logOnewayFailure(TProtocol reader, TMessage reply, Object peer) {
        String reason;
        try {
            reason = TApplicationException.readFrom(reader).getMessage();
        } catch (TException e) {
            reason = "an unreadable exception";
        }
        log.warn("oneway call {} to {} failed on the server: {}", reply.name, peer, reason);
    }

    /**
     * Points the header reader at the frame without moving the frame's position, so the caller's
     * protocol reads it again whole; sizes inside the header are checked against the frame's length.
     */
    private void view(Buffer frame) throws TException {
        if (frame.hasArray()) {
            header.reset(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
        } else {
            byte[] copy = new byte[frame.remaining()];
            frame.duplicate().get(copy);
            header.reset(copy);
        }
        header.updateKnownMessageSize(frame.remaining());
    }

    private static String typeName(byte type) {
        switch (type) {
            case TMessageType.CALL:
                return "a CALL";
            case TMessageType.REPLY:
                return "the reply to";
            case TMessageType.EXCEPTION:
                return "an exception for";
            case TMessageType.ONEWAY:
                return "a ONEWAY";
            default:
                return "message type " + type + " for";
        }
    }
}
