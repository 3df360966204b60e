package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.IOEvent;
import org.glassfish.grizzly.impl.FutureImpl;
import org.glassfish.grizzly.nio.NIOConnection;
import org.glassfish.grizzly.nio.NIOTransport;
import org.glassfish.grizzly.nio.SelectorHandler;
import org.glassfish.grizzly.utils.Futures;

/**
 * Reads one client connection on the thread of the call that owns it, the way a blocking socket
 * would, instead of on the transport's shared selector thread: the shared selector stops watching
 * the connection for input, and a selector of the connection's own lets the caller sleep until
 * bytes arrive, so the kernel wakes the caller directly and no second thread hands the reply over.
 * What it reads still passes through the connection's whole filter chain (TLS, framing,
 * {@link ThriftClientFilter}) on the caller's thread.
 *
 * <p>One thread at a time may wait or read; {@link #close()} may come from any thread and wakes a
 * waiting one.
 */
final class CallerThreadReader implements AutoCloseable {
    private final Connection<?> connection;
    private final Selector readiness;

    private CallerThreadReader(Connection<?> connection, Selector readiness) {
        this.connection = connection;
        this.readiness = readiness;
    }

    /**
     * Takes the reading of {@code connection} over from its shared selector thread, waiting up to
     * {@code timeout} for that thread to let go, so that the two never read at the same time.
     */
    static CallerThreadReader takeOver(Connection<?> connection, Duration timeout) throws IOException {
        NIOConnection nio = (NIOConnection) connection;
        FutureImpl<SelectorHandler.Task> released = Futures.createSafeFuture();
        // Run on the selector thread, between two of its selects: once it has run, no read of
        // this connection is in progress there and none will start.
        ((NIOTransport) nio.getTransport()).getSelectorHandler().enque(nio.getSelectorRunner(), () -> {
            SelectionKey key = nio.getSelectionKey();
            if (key != null && key.isValid()) {
                key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
            }
            return true;
        }, Futures.toCompletionHandler(released));
        try {
            released.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException | CancellationException e) {
            // Cancelled: the transport is shutting down and its selector thread has stopped.
            throw new IOException("the selector thread did not release " + connection.getPeerAddress(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while taking over " + connection.getPeerAddress(), e);
        }
        Selector readiness = Selector.open();
        try {
            nio.getChannel().register(readiness, SelectionKey.OP_READ);
        } catch (IOException | RuntimeException e) {
            readiness.close();
            throw e;
        }
        return new CallerThreadReader(connection, readiness);
    }

    /**
     * Sleeps until input (or the end of the stream) is there, at most {@code timeoutNanos}; true if
     * it is. Returns false at the timeout, and early if the thread is interrupted or the reader closed.
     */
    boolean awaitInput(long timeoutNanos) throws IOException {
        long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos + 999_999));
        try {
            int ready = readiness.select(millis);
            readiness.selectedKeys().clear();
            return ready > 0;
        } catch (ClosedSelectorException e) {
            return false;
        }
    }

    /** Reads what is there without waiting, if anything is; false once the reader is closed. */
    boolean readIfAny() throws IOException {
        try {
            if (readiness.selectNow() > 0) {
                readiness.selectedKeys().clear();
                read();
            }
            return true;
        } catch (ClosedSelectorException e) {
            return false;
        }
    }

    /**
     * Reads once from the socket on this thread and passes the bytes up the filter chain; a frame
     * completed by them reaches {@link ClientFrameTransport#onReply}, the end of the stream closes
     * the connection.
     */
    void read() {
        connection.getTransport().fireIOEvent(IOEvent.READ, connection, null);
    }

    boolean isOpen() {
        return readiness.isOpen();
    }

    @Override
    public void close() {
        try {
            readiness.close();
        } catch (IOException e) {
            // Nothing is left to release: the selector holds no data.
        }
    }
}
