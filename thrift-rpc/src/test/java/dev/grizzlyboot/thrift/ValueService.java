package dev.grizzlyboot.thrift;

import java.util.Arrays;

import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.TServiceClient;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;

/**
 * A service shaped as generated code is ({@code Iface} with a {@code Client} next to it), so that a
 * typed proxy can call {@link ValueEchoProcessor}: {@code echo(seed)} sends the argument struct
 * {@link RandomValues} writes from {@code seed}, and returns the reply's result struct re-encoded
 * with the binary protocol, so replies read through any client and protocol compare byte for byte.
 * Public because the client library instantiates it reflectively.
 */
public final class ValueService {
    private ValueService() {
    }

    /** The service's calls. */
    public interface Iface {
        /**
         * Sends the struct generated from {@code seed} and returns what came back.
         *
         * @param seed the {@link RandomValues} seed of the argument struct
         * @return the result struct, in the binary protocol
         * @throws TException as a generated client's call would
         */
        byte[] echo(long seed) throws TException;
    }

    /** A client written as the generated ones are: it writes and reads through its protocols only. */
    public static final class Client extends TServiceClient implements Iface {
        /**
         * Creates a client speaking {@code protocol}.
         *
         * @param protocol the protocol for both directions
         */
        public Client(TProtocol protocol) {
            super(protocol);
        }

        @Override
        public byte[] echo(long seed) throws TException {
            TProtocol out = getOutputProtocol();
            out.writeMessageBegin(new TMessage("echo", TMessageType.CALL, ++seqid_));
            new RandomValues(seed).writeStruct(out, 0);
            out.writeMessageEnd();
            out.getTransport().flush();
            TProtocol in = getInputProtocol();
            TMessage reply = in.readMessageBegin();
            if (reply.type == TMessageType.EXCEPTION) {
                TApplicationException failure = TApplicationException.readFrom(in);
                in.readMessageEnd();
                throw failure;
            }
            TMemoryBuffer result = new TMemoryBuffer(256);
            ValueEchoProcessor.copyStruct(in, new TBinaryProtocol(result));
            in.readMessageEnd();
            return Arrays.copyOf(result.getArray(), result.length());
        }
    }
}
