package dev.grizzlyboot.memcached.internal.protocol;

import java.nio.ByteBuffer;
import java.util.List;

import dev.grizzlyboot.memcached.MemcachedProtocolException;
import dev.grizzlyboot.memcached.internal.protocol.BinaryProtocolFilter.MemcachedProtocolIOException;
import org.glassfish.grizzly.Appender;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.memory.Buffers;

/**
 * What a codec filter made of one read, and how the chain goes on from there, the same for both
 * wire forms: every whole response goes to the next filter in one pass, a partial one waits for
 * more bytes, and bytes that cannot be a response close the connection (after the responses
 * before them are answered). One per read, on the I/O thread.
 */
final class DecodedRead {

    private static final Appender<Buffer> PARTIAL_APPENDER = Buffers.getBufferAppender(true);

    private DecodedRead() {
    }

    /**
     * @param start     where the bytes read began in {@code input}
     * @param decoded   how many bytes from {@code start} the responses took
     * @param responses the whole responses decoded
     * @param problem   why decoding stopped at bytes that are not a response, or {@code null}
     */
    static NextAction forward(FilterChainContext ctx, Buffer input, int start, int decoded, List<Response> responses,
            String problem) {
        if (problem != null) {
            if (!responses.isEmpty()) {
                // Answer what came before the garbage first; the rerun on the rest closes the connection.
                Buffer garbage = input.split(start + decoded);
                input.tryDispose();
                ctx.setMessage(responses);
                return ctx.getInvokeAction(garbage);
            }
            input.tryDispose();
            ctx.getConnection().closeWithReason(new MemcachedProtocolIOException(
                    new MemcachedProtocolException("garbage from " + ctx.getConnection().getPeerAddress() + ": " + problem)));
            return ctx.getStopAction();
        }
        input.position(start + decoded);
        if (responses.isEmpty()) {
            return ctx.getStopAction(input);
        }
        Buffer partial = input.hasRemaining() ? input.split(input.position()) : null;
        input.tryDispose();
        ctx.setMessage(responses);
        return partial == null ? ctx.getInvokeAction() : ctx.getInvokeAction(partial, PARTIAL_APPENDER);
    }

    /** Decodes whole responses from {@code length} bytes at {@code base}, returning how many bytes they took. */
    @FunctionalInterface
    interface Decoder {
        int decode(byte[] bytes, int base, int length);
    }

    /**
     * Decodes the {@code available} bytes of {@code input} from {@code start}, whose first response
     * is known to be {@code first} bytes long and all there ({@code -1}: not known, such as garbage).
     *
     * @return how many bytes the decoded responses took
     */
    static int decode(Buffer input, int start, int available, int first, Decoder decoder) {
        if (input.hasArray()) {
            return decoder.decode(input.array(), input.arrayOffset() + start, available);
        }
        if (first < 0) {
            return decoder.decode(copy(input, start, available), 0, available);
        }
        // A composite buffer: the partial response kept from the last read, then the bytes read
        // since. Copy only the response that spans the parts; the rest is normally all in the
        // last part, which toByteBuffer then views in place (it copies only a range that spans
        // parts). Copying the whole composite doubled the bytes every read costs.
        int decoded = decoder.decode(copy(input, start, first), 0, first);
        if (decoded == first && available > first) {
            ByteBuffer rest = input.toByteBuffer(start + first, start + available);
            decoded += rest.hasArray() ? decoder.decode(rest.array(), rest.arrayOffset() + rest.position(), available - first)
                    : decoder.decode(copy(rest), 0, available - first);
        }
        return decoded;
    }

    /** {@code length} bytes of a buffer from {@code from}, leaving its position where it was. */
    static byte[] copy(Buffer input, int from, int length) {
        byte[] bytes = new byte[length];
        int position = input.position();
        input.position(from);
        input.get(bytes);
        input.position(position);
        return bytes;
    }

    private static byte[] copy(ByteBuffer view) {
        byte[] bytes = new byte[view.remaining()];
        view.duplicate().get(bytes);
        return bytes;
    }
}
