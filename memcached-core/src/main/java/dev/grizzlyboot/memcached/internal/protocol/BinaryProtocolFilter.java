package dev.grizzlyboot.memcached.internal.protocol;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.memcached.MemcachedProtocolException;
import org.glassfish.grizzly.Appender;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.memory.Buffers;

/**
 * Grizzly filter that decodes response bytes into {@link Response}s: every whole response in the
 * bytes read goes to the next filter as one {@code List<Response>} (one pass of the chain per read,
 * not per response), and a partial response is kept until the rest arrives.
 * Requests are encoded by the connection, so writes pass through unchanged. Stateless and shared
 * by all connections; Grizzly keeps each connection's leftover bytes.
 *
 * <p>Bytes that cannot be a response (wrong magic, a body over the limit) close the connection
 * with a {@link MemcachedProtocolException} as the reason, before any body is allocated.
 */
public final class BinaryProtocolFilter extends BaseFilter {

    private static final byte RESPONSE_MAGIC = (byte) 0x81;
    private static final byte[] EMPTY = new byte[0];
    private static final Appender<Buffer> PARTIAL_APPENDER = Buffers.getBufferAppender(true);

    private final int maxBodyLength;

    /** @param maxBodyLength the largest response body accepted; anything larger is treated as garbage */
    public BinaryProtocolFilter(int maxBodyLength) {
        this.maxBodyLength = maxBodyLength;
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Buffer input = ctx.getMessage();
        List<Response> responses = null;
        // One bulk copy per header: field by field, a composite buffer locates every byte anew.
        byte[] header = null;
        while (input.remaining() >= Request.HEADER_LENGTH) {
            int start = input.position();
            if (header == null) {
                header = new byte[Request.HEADER_LENGTH];
            }
            input.get(header);
            int bodyLength = intAt(header, 8);
            String problem = problem(header, bodyLength);
            if (problem != null) {
                input.position(start);
                if (responses != null) {
                    // Answer what came before the garbage first; the rerun on the rest closes the connection.
                    Buffer garbage = input.split(start);
                    input.tryDispose();
                    ctx.setMessage(responses);
                    return ctx.getInvokeAction(garbage);
                }
                input.tryDispose();
                ctx.getConnection().closeWithReason(new MemcachedProtocolIOException(
                        new MemcachedProtocolException("garbage from " + ctx.getConnection().getPeerAddress() + ": " + problem)));
                return ctx.getStopAction();
            }
            if (input.remaining() < bodyLength) {
                input.position(start);
                break;
            }
            if (responses == null) {
                responses = new ArrayList<>();
            }
            responses.add(decode(input, header));
        }
        if (responses == null) {
            return ctx.getStopAction(input);
        }
        // Every whole response of the read goes on in one pass of the chain; a partial one waits for more bytes.
        Buffer partial = input.hasRemaining() ? input.split(input.position()) : null;
        input.tryDispose();
        ctx.setMessage(responses);
        return partial == null ? ctx.getInvokeAction() : ctx.getInvokeAction(partial, PARTIAL_APPENDER);
    }

    /** Why a header cannot begin a response, or {@code null}. */
    private String problem(byte[] header, int bodyLength) {
        byte magic = header[0];
        int keyAndExtras = shortAt(header, 2) + (header[4] & 0xFF);
        if (magic != RESPONSE_MAGIC) {
            return String.format("bad magic byte 0x%02x (expected 0x81)", magic & 0xFF);
        }
        if (bodyLength < 0 || bodyLength > maxBodyLength) {
            return "response body length " + (bodyLength & 0xFFFFFFFFL) + " exceeds the limit of " + maxBodyLength;
        }
        if (keyAndExtras > bodyLength) {
            return "key and extras (" + keyAndExtras + " bytes) longer than the body (" + bodyLength + ")";
        }
        return null;
    }

    /**
     * Decodes the body of one whole response, which starts at the buffer's position, from the
     * header read just before it. Of the extras only the flags are kept (a GET hit's 4 bytes; no
     * other response the client reads carries extras), so a hit costs no extras array.
     */
    static Response decode(Buffer input, byte[] header) {
        int keyLength = shortAt(header, 2);
        int extrasLength = header[4] & 0xFF;
        int bodyLength = intAt(header, 8);
        int flags = 0;
        int skipped = extrasLength;
        if (extrasLength >= 4) {
            flags = input.getInt();
            skipped -= 4;
        }
        if (skipped > 0) {
            input.position(input.position() + skipped);
        }
        // Most responses carry no key and many no value: share one empty array for those.
        byte[] key = bytes(keyLength);
        byte[] value = bytes(bodyLength - extrasLength - keyLength);
        input.get(key);
        input.get(value);
        return new Response(header[1], shortAt(header, 6), intAt(header, 12), longAt(header, 16), flags, key, value);
    }

    private static byte[] bytes(int length) {
        return length == 0 ? EMPTY : new byte[length];
    }

    private static int shortAt(byte[] bytes, int offset) {
        return ((bytes[offset] & 0xFF) << 8) | (bytes[offset + 1] & 0xFF);
    }

    private static int intAt(byte[] bytes, int offset) {
        return ((bytes[offset] & 0xFF) << 24) | ((bytes[offset + 1] & 0xFF) << 16) | ((bytes[offset + 2] & 0xFF) << 8)
                | (bytes[offset + 3] & 0xFF);
    }

    private static long longAt(byte[] bytes, int offset) {
        return ((long) intAt(bytes, offset) << 32) | (intAt(bytes, offset + 4) & 0xFFFFFFFFL);
    }

    /**
     * Carries a protocol error as a Grizzly close reason (which must be an {@link IOException})
     * to the connection's close handler.
     */
    public static final class MemcachedProtocolIOException extends IOException {

        private static final long serialVersionUID = 1L;

        MemcachedProtocolIOException(MemcachedProtocolException cause) {
            super(cause.getMessage(), cause);
        }

        /** The protocol error. */
        public MemcachedProtocolException protocolError() {
            return (MemcachedProtocolException) getCause();
        }
    }
}
