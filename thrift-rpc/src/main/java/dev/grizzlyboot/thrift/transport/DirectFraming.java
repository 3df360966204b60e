package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import org.glassfish.grizzly.CompletionHandler;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.Processor;
import org.glassfish.grizzly.WriteResult;
import org.glassfish.grizzly.filterchain.FilterChain;
import org.glassfish.grizzly.filterchain.TransportFilter;
import org.glassfish.grizzly.memory.Buffers;
import org.glassfish.grizzly.memory.MemoryManager;
import org.glassfish.grizzly.nio.NIOConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The framed transport of a plain TCP client connection done on the calling thread without
 * Grizzly's filter chain, which on such a connection only frames: a request frame, its length
 * already in place, goes straight to the socket channel if it is small and the transport's write
 * queue is empty (what the socket cannot take at once goes to that queue, {@link FrameWriteQueue},
 * as large frames do whole), and reply frames are read from the socket channel into a buffer the
 * connection keeps, then passed to {@link ClientFrameTransport#onReply} as
 * {@link ThriftClientFilter} would. Frame lengths are checked by the chain's {@link ThriftFrameFilter}
 * itself; the end of the stream, a read error or a length out of range closes the connection,
 * which fails a waiting call.
 *
 * <p>Only for connections whose chain is exactly transport, {@link ThriftFrameFilter} and
 * {@link ThriftClientFilter} (no TLS), and only while no other thread reads the connection. One
 * thread at a time may read; a reply frame stays valid until the next read.
 */
final class DirectFraming {
    private static final int INITIAL_READ_CAPACITY = 8 * 1024;
    /**
     * The most bytes one read or direct write hands the socket channel: the JDK moves a heap
     * buffer through a temporary direct buffer as large as what is asked, and keeps that buffer
     * for the thread. Larger frames are read in several reads and written by Grizzly's writer,
     * which writes in pieces the size of the socket's buffer.
     */
    private static final int SOCKET_CHUNK = 64 * 1024;
    private static final Logger log = LoggerFactory.getLogger(DirectFraming.class);

    private final NIOConnection connection;
    private final SocketChannel channel;
    private final FrameWriteQueue writes;
    private final MemoryManager<?> memory;
    private final ThriftFrameFilter frames;
    private byte[] input = new byte[INITIAL_READ_CAPACITY];
    private ByteBuffer window = ByteBuffer.wrap(input);
    private ByteBuffer output;
    /** The first byte of {@link #input} not yet passed on as part of a frame. */
    private int start;
    /** The end of the bytes read into {@link #input}. */
    private int end;

    private DirectFraming(NIOConnection connection, ThriftFrameFilter frames) {
        this.connection = connection;
        this.channel = (SocketChannel) connection.getChannel();
        this.writes = new FrameWriteQueue(connection);
        this.memory = connection.getMemoryManager();
        this.frames = frames;
    }

    /** Returns direct framing for {@code connection}, or null if its filter chain does more than frame (TLS). */
    static DirectFraming ifPlain(Connection<?> connection) {
        Processor<?> processor = connection.getProcessor();
        if (connection instanceof NIOConnection nio && nio.getChannel() instanceof SocketChannel
                && processor instanceof FilterChain chain && chain.size() == 3
                && chain.get(0) instanceof TransportFilter && chain.get(1) instanceof ThriftFrameFilter frames
                && chain.get(2) instanceof ThriftClientFilter) {
            return new DirectFraming(nio, frames);
        }
        return null;
    }

    /**
     * Writes one frame whose payload is {@code frame[HEADER_SIZE .. HEADER_SIZE + length)}; the
     * length prefix is written into the first bytes. The array may be reused once this returns.
     * {@code completion} hears of a failure, and of the end of a write that was queued; a small
     * frame the socket takes whole here completes without it.
     */
    void write(byte[] frame, int length, CompletionHandler<WriteResult> completion) {
        int whole = FrameWriteQueue.prefix(frame, length);
        int written = 0;
        // With nothing in the write queue no other thread writes this connection (the selector
        // thread only flushes what is queued), so the frame may go to the socket directly, without
        // a queue record; what the socket cannot take is queued behind, as Grizzly's writer would.
        if (whole <= SOCKET_CHUNK && connection.getAsyncWriteQueue().spaceInBytes() == 0) {
            try {
                written = channel.write(outputWindow(frame).limit(whole).position(0));
            } catch (IOException e) {
                completion.failed(e);
                connection.closeSilently();
                return;
            }
        }
        if (written < whole) {
            writes.queue(frame, written, whole, completion);
        }
    }

    /** A buffer over the transport's output array, kept while the transport keeps the array. */
    private ByteBuffer outputWindow(byte[] frame) {
        if (output == null || output.array() != frame) {
            output = ByteBuffer.wrap(frame);
        }
        return output;
    }

    /**
     * Reads what the socket has (call it once the channel is readable) and passes every frame
     * completed by it to {@code transport}.
     */
    void read(ClientFrameTransport transport) {
        makeRoom();
        int read;
        try {
            window.limit(Math.min(input.length, end + SOCKET_CHUNK)).position(end);
            read = channel.read(window);
        } catch (IOException e) {
            log.debug("closing {}: read failed", connection.getPeerAddress(), e);
            closeConnection();
            return;
        }
        if (read < 0) {
            closeConnection();
            return;
        }
        end += read;
        while (end - start >= ThriftFrameFilter.HEADER_SIZE) {
            int length = lengthAt(start);
            if (!frames.accepts(length, connection)) {
                closeConnection();
                return;
            }
            if (end - start - ThriftFrameFilter.HEADER_SIZE < length) {
                return;
            }
            int payload = start + ThriftFrameFilter.HEADER_SIZE;
            start = payload + length;
            transport.onReply(Buffers.wrap(memory, input, payload, length));
        }
    }

    /** True if bytes of a frame not yet complete were read: nothing should come between calls. */
    boolean hasUnread() {
        return end > start;
    }

    /**
     * Moves the unread bytes to the front, or into a larger array if the frame they start needs
     * one. Only here, before a read, since a frame passed on by the last read has been used by now.
     */
    private void makeRoom() {
        if (start == end) {
            start = 0;
            end = 0;
            return;
        }
        int frame = end - start >= ThriftFrameFilter.HEADER_SIZE
                ? ThriftFrameFilter.HEADER_SIZE + lengthAt(start) : ThriftFrameFilter.HEADER_SIZE;
        if (start + frame <= input.length && end < input.length) {
            return;
        }
        byte[] target = frame > input.length ? new byte[frame] : input;
        System.arraycopy(input, start, target, 0, end - start);
        end -= start;
        start = 0;
        if (target != input) {
            input = target;
            window = ByteBuffer.wrap(input);
        }
    }

    private int lengthAt(int index) {
        return (input[index] & 0xff) << 24 | (input[index + 1] & 0xff) << 16
                | (input[index + 2] & 0xff) << 8 | input[index + 3] & 0xff;
    }

    private void closeConnection() {
        start = 0;
        end = 0;
        // Closing runs the chain's close event on this thread: ThriftClientFilter fails the waiting call.
        connection.closeSilently();
    }
}
