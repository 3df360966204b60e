package dev.grizzlyboot.thrift.transport;

import dev.grizzlyboot.thrift.observation.CallObserver;
import dev.grizzlyboot.thrift.observation.CallOutcome;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolDecorator;

/**
 * Wraps a server session's protocols to tell a {@link CallObserver} about each call. The names
 * come from the request's message header, the outcome from the reply the processor writes: an
 * EXCEPTION message is an application exception, a result whose first field is not field 0 (the
 * return value) a declared exception. Names the processor did not serve are recorded as
 * {@value CallObserver#UNKNOWN}: the method when it answered UNKNOWN_METHOD, both when it could
 * not run the call at all (an unknown multiplexed service, a broken request). Used by one call at
 * a time, like its session.
 */
final class CallRecorder {
    private static final short NO_FIELD = -1;
    /** The field of a serialized {@link TApplicationException} that holds its type. */
    private static final short EXCEPTION_TYPE_FIELD = 2;

    final TProtocol in;
    final TProtocol out;
    private final CallObserver observer;
    private final String defaultService;
    private CallObserver.ObservedCall call;
    private String service;
    private String method;
    private byte replyType;
    private short firstReplyField;
    private short currentField;
    private int exceptionType;

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
                currentField = field.id;
                super.writeFieldBegin(field);
            }

            @Override
            public void writeI32(int value) throws TException {
                if (replyType == TMessageType.EXCEPTION && currentField == EXCEPTION_TYPE_FIELD) {
                    exceptionType = value;
                }
                super.writeI32(value);
            }
        };
    }

    /** Ends the observation of the call that ran, if its request could be read. */
    void ended(Throwable error) {
        if (call == null) {
            return;
        }
        CallObserver.ObservedCall ending = call;
        call = null;
        if (error != null) {
            ending.end(CallObserver.UNKNOWN, CallObserver.UNKNOWN, CallOutcome.TRANSPORT_ERROR, error);
        } else if (replyType == TMessageType.EXCEPTION) {
            boolean unknownMethod = exceptionType == TApplicationException.UNKNOWN_METHOD;
            ending.end(service, unknownMethod ? CallObserver.UNKNOWN : method, CallOutcome.APPLICATION_EXCEPTION, null);
        } else if (replyType == TMessageType.REPLY && firstReplyField > 0) {
            ending.end(service, method, CallOutcome.DECLARED_EXCEPTION, null);
        } else {
            ending.end(service, method, CallOutcome.SUCCESS, null);
        }
    }

    private void started(String name) {
        int separator = name.indexOf(TMultiplexedProtocol.SEPARATOR);
        service = separator < 0 ? defaultService : name.substring(0, separator);
        method = separator < 0 ? name : name.substring(separator + 1);
        replyType = -1;
        firstReplyField = NO_FIELD;
        currentField = NO_FIELD;
        exceptionType = -1;
        call = observer.start();
    }
}
