package dev.grizzlyboot.thrift.transport;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolDecorator;

/**
 * A protocol that hands out binary fields in arrays of their own. libthrift's protocols return a
 * binary field as a view into the transport's buffer when they can; our transports read the
 * connection's next frame into that same buffer, so a view kept after its call (a client's result,
 * an argument a handler keeps) would change under its holder. libthrift's own framed transports
 * read each frame into a new array, where a view stays as it was: this keeps that contract. Used
 * by one call at a time, like its transport.
 */
class OwnedBinaryProtocol extends TProtocolDecorator {
    private final FrameTransport transport;

    OwnedBinaryProtocol(TProtocol wire, FrameTransport transport) {
        super(wire);
        this.transport = transport;
    }

    @Override
    public final ByteBuffer readBinary() throws TException {
        ByteBuffer binary = super.readBinary();
        byte[] frame = transport.getBuffer();
        if (frame == null || !binary.hasArray() || binary.array() != frame) {
            return binary;
        }
        int from = binary.arrayOffset() + binary.position();
        return ByteBuffer.wrap(Arrays.copyOfRange(frame, from, from + binary.remaining()));
    }
}
