package dev.grizzlyboot.thrift.transport;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TEndpointTransport;
import org.apache.thrift.transport.TTransportException;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.memory.Buffers;

/**
 * A Thrift transport that reads one received frame at a time and collects one outgoing message,
 * for a single Grizzly connection. Message-size accounting comes from {@link TEndpointTransport},
 * so protocols reject container and string sizes larger than what is left in the frame.
 * Not thread-safe: one call at a time uses it.
 */
abstract class FrameTransport extends TEndpointTransport {
    private static final int INITIAL_WRITE_CAPACITY = 1024;

    final Connection<?> connection;
    private Buffer input;
    /** The message being written, after {@link ThriftFrameFilter#HEADER_SIZE} bytes left free for its length. */
    private byte[] output = new byte[INITIAL_WRITE_CAPACITY];
    private int outputLength = ThriftFrameFilter.HEADER_SIZE;

    FrameTransport(Connection<?> connection, TConfiguration configuration) throws TTransportException {
        super(configuration);
        this.connection = connection;
    }

    /** Makes {@code frame} the bytes that the next reads return. */
    final void receive(Buffer frame) throws TTransportException {
        input = frame;
        resetConsumedMessageSize(-1);
        resetConsumedMessageSize(frame.remaining());
    }

    /** The bytes of the current frame that no read has taken yet. */
    final int unreadInFrame() {
        return input == null ? 0 : input.remaining();
    }

    /** Called when a read finds the current frame exhausted; returns the next frame or throws. */
    abstract Buffer awaitFrame() throws TTransportException;

    /**
     * Hands a complete message to the connection: its payload is {@code frame[HEADER_SIZE ..
     * HEADER_SIZE + length)}, and the first {@link ThriftFrameFilter#HEADER_SIZE} bytes are free for
     * the length prefix. The array is reused for the next message once this returns.
     */
    abstract void send(byte[] frame, int length) throws TTransportException;

    /** The payload part of a frame given to {@link #send}, for writing through the filter chain. */
    final Buffer payload(byte[] frame, int length) {
        return Buffers.wrap(connection.getMemoryManager(), frame, ThriftFrameFilter.HEADER_SIZE, length);
    }

    @Override
    public final int read(byte[] buf, int off, int len) throws TTransportException {
        if (input == null || !input.hasRemaining()) {
            receive(awaitFrame());
        }
        int n = Math.min(len, input.remaining());
        input.get(buf, off, n);
        countConsumedMessageBytes(n);
        return n;
    }

    // The four methods below let protocols read straight from a heap frame without a copy.

    @Override
    public final byte[] getBuffer() {
        return input != null && input.hasArray() ? input.array() : null;
    }

    @Override
    public final int getBufferPosition() {
        return input != null && input.hasArray() ? input.arrayOffset() + input.position() : 0;
    }

    @Override
    public final int getBytesRemainingInBuffer() {
        return input != null && input.hasArray() ? input.remaining() : -1;
    }

    @Override
    public final void consumeBuffer(int len) {
        input.position(input.position() + len);
    }

    @Override
    public final void write(byte[] buf, int off, int len) {
        makeRoom(len);
        System.arraycopy(buf, off, output, outputLength, len);
        outputLength += len;
    }

    /**
     * Copies the buffer straight into the message; TTransport's default copies it into a new array
     * first, which TCompactProtocol's {@code writeBinary} pays for every binary field.
     */
    @Override
    public final int write(ByteBuffer src) {
        int len = src.remaining();
        makeRoom(len);
        src.get(output, outputLength, len);
        outputLength += len;
        return len;
    }

    private void makeRoom(int len) {
        int needed = outputLength + len;
        if (needed > output.length) {
            output = Arrays.copyOf(output, Math.max(needed, output.length * 2));
        }
    }

    @Override
    public final void flush() throws TTransportException {
        int length = outputLength - ThriftFrameFilter.HEADER_SIZE;
        outputLength = ThriftFrameFilter.HEADER_SIZE;
        if (length == 0) {
            return;
        }
        send(output, length);
    }

    @Override
    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public final void open() {
        // The Grizzly connection is opened (or accepted) before the transport exists.
    }

    @Override
    public void close() {
        connection.closeSilently();
    }
}
