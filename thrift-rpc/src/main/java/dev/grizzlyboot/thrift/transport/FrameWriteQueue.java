package dev.grizzlyboot.thrift.transport;

import java.net.SocketAddress;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.CompletionHandler;
import org.glassfish.grizzly.WriteResult;
import org.glassfish.grizzly.asyncqueue.AsyncQueueWriter;
import org.glassfish.grizzly.asyncqueue.MessageCloner;
import org.glassfish.grizzly.asyncqueue.WritableMessage;
import org.glassfish.grizzly.memory.Buffers;
import org.glassfish.grizzly.memory.MemoryManager;
import org.glassfish.grizzly.nio.NIOConnection;
import org.glassfish.grizzly.nio.NIOTransport;

/**
 * Writes whole frames of a plain TCP connection straight to its transport's write queue, without
 * the filter chain: the length prefix goes into the first {@link ThriftFrameFilter#HEADER_SIZE}
 * bytes of the caller's array, and what the socket cannot take at once is copied into the queue,
 * so the array may be reused as soon as {@link #write} returns. Frames keep the order of the
 * {@code write} calls, also relative to writes and a graceful close through the chain, which use
 * the same queue. Thread-safe as Grizzly's writer is; callers keep one frame per call in order.
 */
final class FrameWriteQueue {
    private final NIOConnection connection;
    private final AsyncQueueWriter<SocketAddress> writer;
    private final MemoryManager<?> memory;
    private final MessageCloner<WritableMessage> copyIfQueued;

    FrameWriteQueue(NIOConnection connection) {
        this.connection = connection;
        this.writer = ((NIOTransport) connection.getTransport()).getAsyncQueueIO().getWriter();
        this.memory = connection.getMemoryManager();
        this.copyIfQueued = (queued, message) -> Buffers.wrap(memory, copy((Buffer) message));
    }

    /**
     * Writes one frame whose payload is {@code frame[HEADER_SIZE .. HEADER_SIZE + length)}; the
     * length prefix is written into the first bytes. {@code completion} may be null.
     */
    void write(byte[] frame, int length, CompletionHandler<WriteResult> completion) {
        queue(frame, 0, prefix(frame, length), completion);
    }

    /**
     * Writes the length prefix of a frame with {@code length} bytes of payload into its first
     * {@link ThriftFrameFilter#HEADER_SIZE} bytes and returns the frame's whole size.
     */
    static int prefix(byte[] frame, int length) {
        frame[0] = (byte) (length >>> 24);
        frame[1] = (byte) (length >>> 16);
        frame[2] = (byte) (length >>> 8);
        frame[3] = (byte) length;
        return ThriftFrameFilter.HEADER_SIZE + length;
    }

    /**
     * Queues {@code frame[from .. to)} as it is (the rest of a frame whose prefix is in place and
     * whose first bytes went to the socket already). {@code completion} may be null.
     */
    @SuppressWarnings({"rawtypes", "unchecked"}) // Grizzly's writer generics cannot name the completion's types
    void queue(byte[] frame, int from, int to, CompletionHandler<WriteResult> completion) {
        Buffer rest = Buffers.wrap(memory, frame, from, to - from);
        ((AsyncQueueWriter) writer).write(connection, null, rest, completion, copyIfQueued);
    }

    private static byte[] copy(Buffer message) {
        byte[] copy = new byte[message.remaining()];
        message.get(copy, 0, copy.length);
        message.position(message.position() - copy.length);
        return copy;
    }
}
