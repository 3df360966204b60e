package dev.grizzlyboot.memcached.internal.protocol;

import java.io.IOException;

import dev.grizzlyboot.memcached.MemcachedProtocolException;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/**
 * Grizzly filter that decodes response bytes into {@link Response}s, one per invocation of the
 * next filter, keeping a partial response until the rest arrives and splitting coalesced ones.
 * Requests are encoded by the connection, so writes pass through unchanged. Stateless and shared
 * by all connections; Grizzly keeps each connection's leftover bytes.
 *
 * <p>Bytes that cannot be a response (wrong magic, a body over the limit) close the connection
 * with a {@link MemcachedProtocolException} as the reason, before any body is allocated.
 */
public final class BinaryProtocolFilter extends BaseFilter {

    private static final byte RESPONSE_MAGIC = (byte) 0x81;

    private final int maxBodyLength;

    /** @param maxBodyLength the largest response body accepted; anything larger is treated as garbage */
    public BinaryProtocolFilter(int maxBodyLength) {
        this.maxBodyLength = maxBodyLength;
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Buffer input = ctx.getMessage();
        if (input.remaining() < Request.HEADER_LENGTH) {
            return ctx.getStopAction(input);
        }
        int start = input.position();
        byte magic = input.get(start);
        int bodyLength = input.getInt(start + 8);
        int keyAndExtras = (input.getShort(start + 2) & 0xFFFF) + (input.get(start + 4) & 0xFF);
        String problem = null;
        if (magic != RESPONSE_MAGIC) {
            problem = String.format("bad magic byte 0x%02x (expected 0x81)", magic & 0xFF);
        } else if (bodyLength < 0 || bodyLength > maxBodyLength) {
            problem = "response body length " + (bodyLength & 0xFFFFFFFFL) + " exceeds the limit of " + maxBodyLength;
        } else if (keyAndExtras > bodyLength) {
            problem = "key and extras (" + keyAndExtras + " bytes) longer than the body (" + bodyLength + ")";
        }
        if (problem != null) {
            input.tryDispose();
            ctx.getConnection().closeWithReason(new MemcachedProtocolIOException(
                    new MemcachedProtocolException("garbage from " + ctx.getConnection().getPeerAddress() + ": " + problem)));
            return ctx.getStopAction();
        }
        if (input.remaining() < Request.HEADER_LENGTH + bodyLength) {
            return ctx.getStopAction(input);
        }
        Response response = decode(input, bodyLength);
        Buffer remainder = input.hasRemaining() ? input.split(input.position()) : null;
        input.tryDispose();
        ctx.setMessage(response);
        return ctx.getInvokeAction(remainder);
    }

    /** Decodes one whole response whose header starts at the buffer's position. */
    static Response decode(Buffer input, int bodyLength) {
        input.get();
        byte opcode = input.get();
        int keyLength = input.getShort() & 0xFFFF;
        int extrasLength = input.get() & 0xFF;
        input.get();
        int status = input.getShort() & 0xFFFF;
        input.getInt();
        int opaque = input.getInt();
        long cas = input.getLong();
        byte[] extras = new byte[extrasLength];
        byte[] key = new byte[keyLength];
        byte[] value = new byte[bodyLength - extrasLength - keyLength];
        input.get(extras);
        input.get(key);
        input.get(value);
        return new Response(opcode, status, opaque, cas, extras, key, value);
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
