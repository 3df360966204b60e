package dev.grizzlyboot.thrift.transport;

import java.io.IOException;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Grizzly filter for Thrift's framed transport: each message is preceded by its length as a
 * 4-byte big-endian integer. Reads pass complete frames (without the length) upstream, however
 * the bytes were split or coalesced by TCP; writes prepend the length to a payload buffer.
 *
 * <p>A frame length of zero or less, or above the configured maximum, closes the connection as
 * soon as the four length bytes are seen, before any space for the frame is set aside (on a
 * client connection, the waiting call fails with that reason first). The
 * filter is stateless (partial frames live in Grizzly's per-connection remainder), so one
 * instance serves every connection of a filter chain from any thread.
 */
public final class ThriftFrameFilter extends BaseFilter {
    /** Size of the length prefix in bytes. */
    public static final int HEADER_SIZE = 4;

    private static final Logger log = LoggerFactory.getLogger(ThriftFrameFilter.class);

    private final int maxFrameSize;

    /**
     * Creates a filter that accepts frames of 1 to {@code maxFrameSize} bytes.
     *
     * @param maxFrameSize largest accepted frame payload in bytes, not counting the length prefix
     * @throws IllegalArgumentException if {@code maxFrameSize} is not positive
     */
    public ThriftFrameFilter(int maxFrameSize) {
        if (maxFrameSize <= 0) {
            throw new IllegalArgumentException("maxFrameSize must be positive, was " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    /**
     * Returns the largest frame this filter accepts.
     *
     * @return the maximum payload size in bytes
     */
    public int maxFrameSize() {
        return maxFrameSize;
    }

    /** Whether a frame of {@code length} may be read from {@code connection}; logs why not. */
    boolean accepts(int length, Connection<?> connection) {
        if (length > 0 && length <= maxFrameSize) {
            return true;
        }
        String reason = "frame length " + length + " outside 1.." + maxFrameSize;
        log.debug("closing {}: {}", connection.getPeerAddress(), reason);
        ClientFrameTransport client = ClientFrameTransport.ATTACHED.get(connection);
        if (client != null) {
            client.onFrameRefused(reason);
        }
        return false;
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Buffer input = ctx.getMessage();
        if (input.remaining() < HEADER_SIZE) {
            return ctx.getStopAction(input);
        }
        int start = input.position();
        int length = input.getInt(start);
        if (!accepts(length, ctx.getConnection())) {
            ctx.getConnection().closeSilently();
            return ctx.getStopAction();
        }
        int end = start + HEADER_SIZE + length;
        if (input.limit() < end) {
            return ctx.getStopAction(input);
        }
        Buffer remainder = input.limit() > end ? input.split(end) : null;
        input.position(start + HEADER_SIZE);
        ctx.setMessage(input);
        return ctx.getInvokeAction(remainder);
    }

    /**
     * Frames the payload buffer into a new buffer. Copying here is what lets the Thrift transports
     * reuse their write arrays as soon as {@code write} returns.
     */
    @Override
    public NextAction handleWrite(FilterChainContext ctx) throws IOException {
        Buffer payload = ctx.getMessage();
        int length = payload.remaining();
        Buffer frame = ctx.getMemoryManager().allocate(HEADER_SIZE + length);
        frame.putInt(length);
        frame.put(payload);
        frame.flip();
        frame.allowBufferDispose(true);
        ctx.setMessage(frame);
        return ctx.getInvokeAction();
    }
}
