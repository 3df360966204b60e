package dev.grizzlyboot.thrift.transport;

import dev.grizzlyboot.thrift.observation.CallObserver;
import dev.grizzlyboot.thrift.observation.CallOutcome;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolDecorator;

/**
 * Wraps a server session's protocols to tell a {@link CallObserver} about each call: the method
 * comes from the request's message header, the outcome from the reply the processor writes (an
 * EXCEPTION message is an application exception; a result whose first field is not field 0, the
 * return value, is a declared exception). Used by one call at a time, like its session.
 */
final class CallRecorder {
    private static final short NO_FIELD = -1;

    final TProtocol in;
    final TProtocol out;
    private final CallObserver observer;
    private final String defaultService;
    private CallObserver.ObservedCall call;
    private byte replyType;
    private short firstReplyField;

    CallRecorder(CallObserver observer, String defaultService, TProtocol in, TProtocol out) {
        this.observer = observer;
        this.defaultService = defaultService;
        this.in = new TProtocolDecorator(in) {
            @Override
            public TMessage readMessageBegin() throws TException {
                TMessage request = super.readMessageBegin();
                started(request.name);
                return request;
            }
        };
        this.out = new TProtocolDecorator(out) {
            @Override
            public void writeMessageBegin(TMessage reply) throws TException {
                replyType = reply.type;
                super.writeMessageBegin(reply);
            }

            @Override
            public void writeFieldBegin(TField field) throws TException {
                if (firstReplyField == NO_FIELD) {
                    firstReplyField = field.id;
                }
                super.writeFieldBegin(field);
            }
        };
    }

    /** Ends the observation of the call that ran, if its request could be read. */
    void ended(Throwable error) {
        if (call == null) {
            return;
        }
        CallOutcome outcome;
        if (error != null) {
            outcome = CallOutcome.TRANSPORT_ERROR;
        } else if (replyType == TMessageType.EXCEPTION) {
            outcome = CallOutcome.APPLICATION_EXCEPTION;
        } else if (replyType == TMessageType.REPLY && firstReplyField > 0) {
            outcome = CallOutcome.DECLARED_EXCEPTION;
        } else {
            outcome = CallOutcome.SUCCESS;
        }
        CallObserver.ObservedCall ending = call;
        call = null;
        ending.end(outcome, error);
    }

    private void started(String name) {
        int separator = name.indexOf(TMultiplexedProtocol.SEPARATOR);
        String service = separator < 0 ? defaultService : name.substring(0, separator);
        String method = separator < 0 ? name : name.substring(separator + 1);
        replyType = -1;
        firstReplyField = NO_FIELD;
        call = observer.start(service, method);
    }
}
