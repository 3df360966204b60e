package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.memory.Buffers;

/**
 * The bytes of one connection that are not yet a whole request frame, kept per connection rather
 * than in Grizzly's filter chain so that whichever thread reads the connection (its selector
 * thread or a {@link ConnectionReader}) continues where the other stopped. Frames are checked as
 * {@link ThriftFrameFilter} checks them: an unacceptable length is refused as soon as its four
 * bytes are seen, before space for the frame is set aside. Not thread-safe: only the thread that
 * currently reads the connection uses it.
 */
final class FrameAssembler {
    private static final int INITIAL_CAPACITY = 8192;
    /** Space kept free for a read; a larger buffer left by a large frame is dropped once empty. */
    private static final int READ_SPACE = 4096;
    /** Returned by {@link #nextLength} when the next frame's length is not accepted. */
    static final int REFUSED = -1;

    private final ThriftFrameFilter limits;
    private byte[] bytes = new byte[INITIAL_CAPACITY];
    private ByteBuffer view = ByteBuffer.wrap(bytes);
    private int start;
    private int end;

    FrameAssembler(ThriftFrameFilter limits) {
        this.limits = limits;
    }

    /** Appends what {@code input} holds; it is read to its end. */
    void append(Buffer input) {
        int length = input.remaining();
        makeRoom(length);
        input.get(bytes, end, length);
        end += length;
    }

    /**
     * Reads what {@code channel} has now, as much as the free space takes (at least
     * {@value #READ_SPACE} bytes, more while a large frame grows the array).
     *
     * @return the bytes read, 0 if none were ready, or -1 at the end of the stream
     */
    int readFrom(ReadableByteChannel channel) throws IOException {
        makeRoom(READ_SPACE);
        view.limit(bytes.length).position(end);
        int read = channel.read(view);
        if (read > 0) {
            end += read;
        }
        return read;
    }

    /**
     * Returns the payload length of the next frame if it is all here, 0 if it is not yet, or
     * {@link #REFUSED} if its length is outside what {@code connection} accepts.
     */
    int nextLength(Connection<?> connection) {
        int available = end - start;
        if (available < ThriftFrameFilter.HEADER_SIZE) {
            return 0;
        }
        int length = (bytes[start] & 0xff) << 24 | (bytes[start + 1] & 0xff) << 16
                | (bytes[start + 2] & 0xff) << 8 | bytes[start + 3] & 0xff;
        if (!limits.accepts(length, connection)) {
            return REFUSED;
        }
        // Space grows with the bytes that arrive, never ahead of them: a length alone, however
        // large, sets nothing aside.
        return available - ThriftFrameFilter.HEADER_SIZE < length ? 0 : length;
    }

    /**
     * Takes the next frame, whose length {@link #nextLength} returned, as a buffer over this
     * assembler's array: valid until the next read or append.
     */
    Buffer takeView(Connection<?> connection, int length) {
        Buffer frame = Buffers.wrap(connection.getMemoryManager(), bytes, start + ThriftFrameFilter.HEADER_SIZE, length);
        consume(length);
        return frame;
    }

    /** Takes the next frame, whose length {@link #nextLength} returned, as a copy of its own. */
    Buffer takeCopy(Connection<?> connection, int length) {
        int from = start + ThriftFrameFilter.HEADER_SIZE;
        Buffer frame = Buffers.wrap(connection.getMemoryManager(), Arrays.copyOfRange(bytes, from, from + length));
        consume(length);
        return frame;
    }

    private void consume(int length) {
        start += ThriftFrameFilter.HEADER_SIZE + length;
        if (start == end) {
            start = 0;
            end = 0;
            if (bytes.length > INITIAL_CAPACITY + READ_SPACE) {
                bytes = new byte[INITIAL_CAPACITY];
                view = ByteBuffer.wrap(bytes);
            }
        }
    }

    /** Makes room for {@code more} bytes after the end, moving what is kept to the front first. */
    private void makeRoom(int more) {
        if (bytes.length - end >= more) {
            return;
        }
        int kept = end - start;
        byte[] target = bytes.length - kept >= more ? bytes : new byte[Math.max(kept + more, bytes.length * 2)];
        System.arraycopy(bytes, start, target, 0, kept);
        if (target != bytes) {
            bytes = target;
            view = ByteBuffer.wrap(bytes);
        }
        start = 0;
        end = kept;
    }
}
