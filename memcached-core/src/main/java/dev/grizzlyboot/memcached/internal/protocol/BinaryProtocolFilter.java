package dev.grizzlyboot.memcached.internal.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;

import dev.grizzlyboot.memcached.MemcachedProtocolException;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/**
 * Grizzly filter that decodes response bytes into {@link Response}s: every whole response in the
 * bytes read goes to the next filter as one {@code List<Response>} (one pass of the chain per read,
 * not per response), and a partial response is kept until the rest arrives.
 * Requests are encoded by the connection, so writes pass through unchanged. Stateless and shared
 * by all connections; Grizzly keeps each connection's leftover bytes.
 *
 * <p>Bytes that cannot be a response (wrong magic, a body over the limit) close the connection
 * with a {@link MemcachedProtocolException} as the reason, before any body is allocated; a text
 * error line instead of a response closes it with a {@link TextErrorLineIOException}.
 */
public final class BinaryProtocolFilter extends BaseFilter {

    private static final byte RESPONSE_MAGIC = (byte) 0x81;
    private static final byte[] EMPTY = new byte[0];
    /** The longest text error line recognised in place of a binary response. */
    private static final int MAX_TEXT_LINE = 256;

    private final int maxBodyLength;

    /** @param maxBodyLength the largest response body accepted; anything larger is treated as garbage */
    public BinaryProtocolFilter(int maxBodyLength) {
        this.maxBodyLength = maxBodyLength;
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Buffer input = ctx.getMessage();
        int start = input.position();
        int available = input.remaining();
        int firstBody = available < Request.HEADER_LENGTH ? 0 : input.getInt(start + 8);
        if (available < Request.HEADER_LENGTH || (firstBody >= 0 && firstBody <= maxBodyLength
                && available - Request.HEADER_LENGTH < firstBody)) {
            // Not even one whole response yet (a large value arrives over many reads): wait, copying nothing.
            return ctx.getStopAction(input);
        }
        Frames frames = new Frames();
        int first = firstBody < 0 || firstBody > maxBodyLength ? -1 : Request.HEADER_LENGTH + firstBody;
        int decoded = DecodedRead.decode(input, start, available, first, frames::decode);
        if (frames.problem != null && decoded == 0) {
            String line = textErrorLine(DecodedRead.copy(input, start, Math.min(available, MAX_TEXT_LINE)));
            if (line != null) {
                input.tryDispose();
                ctx.getConnection().closeWithReason(new TextErrorLineIOException(line));
                return ctx.getStopAction();
            }
        }
        return DecodedRead.forward(ctx, input, start, decoded, frames.responses, frames.problem);
    }

    /**
     * The text-protocol error line ({@code ERROR}, {@code CLIENT_ERROR}, {@code SERVER_ERROR}, up to
     * its CRLF) that {@code bytes} begin with, or {@code null}. memcached at its connection limit
     * ({@code -c}) writes {@code ERROR Too many open connections} to a connection it accepts and
     * closes it, without reading what the client sent, whichever protocol that is.
     */
    private static String textErrorLine(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.US_ASCII);
        int end = text.indexOf("\r\n");
        if (end < 0 || !(text.startsWith("ERROR") || text.startsWith("CLIENT_ERROR") || text.startsWith("SERVER_ERROR"))) {
            return null;
        }
        String line = text.substring(0, end);
        return line.chars().allMatch(c -> c >= 0x20 && c < 0x7F) ? line : null;
    }

    /**
     * Decodes the whole response whose header starts at {@code at}. Of the extras only the flags
     * are kept (a GET hit's 4 bytes; no other response the client reads carries extras), so a hit
     * costs no extras array.
     */
    static Response decode(byte[] bytes, int at) {
        int keyLength = shortAt(bytes, at + 2);
        int extrasLength = bytes[at + 4] & 0xFF;
        int bodyLength = intAt(bytes, at + 8);
        int flags = extrasLength >= 4 ? intAt(bytes, at + Request.HEADER_LENGTH) : 0;
        int keyStart = at + Request.HEADER_LENGTH + extrasLength;
        // Most responses carry no key and many no value: share one empty array for those.
        byte[] key = copy(bytes, keyStart, keyLength);
        byte[] value = copy(bytes, keyStart + keyLength, bodyLength - extrasLength - keyLength);
        return new Response(bytes[at + 1], shortAt(bytes, at + 6), intAt(bytes, at + 12), longAt(bytes, at + 16), flags, key, value);
    }

    /**
     * The responses decoded from one read, and why decoding stopped early if the bytes turned out
     * not to be responses. One per read, on the I/O thread.
     */
    private final class Frames {

        private final List<Response> responses = new ArrayList<>();
        private String problem;

        /**
         * Decodes every whole response in {@code length} bytes from {@code base}, stopping at a
         * partial one or at garbage (then {@link #problem} says why).
         *
         * @return how many bytes the decoded responses took
         */
        int decode(byte[] bytes, int base, int length) {
            int decoded = 0;
            while (problem == null && length - decoded >= Request.HEADER_LENGTH) {
                int at = base + decoded;
                int bodyLength = intAt(bytes, at + 8);
                problem = problem(bytes, at, bodyLength);
                if (problem != null || length - decoded - Request.HEADER_LENGTH < bodyLength) {
                    break;
                }
                responses.add(BinaryProtocolFilter.decode(bytes, at));
                decoded += Request.HEADER_LENGTH + bodyLength;
            }
            return decoded;
        }

        /** Why the header at {@code at} cannot begin a response, or {@code null}. */
        private String problem(byte[] bytes, int at, int bodyLength) {
            byte magic = bytes[at];
            int keyAndExtras = shortAt(bytes, at + 2) + (bytes[at + 4] & 0xFF);
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
    }

    private static byte[] copy(byte[] bytes, int from, int length) {
        return length == 0 ? EMPTY : Arrays.copyOfRange(bytes, from, from + length);
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
     * Carries, as a Grizzly close reason, a text-protocol error line the server sent where a binary
     * response was due, before any binary response on this read. The connection decides what it
     * means: on a connection that has not answered yet, the server refused it.
     */
    public static final class TextErrorLineIOException extends IOException {

        private static final long serialVersionUID = 1L;

        TextErrorLineIOException(String line) {
            super(line);
        }

        /** The line, without its CRLF. */
        public String line() {
            return getMessage();
        }
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
