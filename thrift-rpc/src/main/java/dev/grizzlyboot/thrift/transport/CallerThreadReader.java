package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

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
 * What it reads passes through the connection's whole filter chain (TLS, framing,
 * {@link ThriftClientFilter}) on the caller's thread, or, on a plain TCP connection, through
 * {@link DirectFraming}, which frames the bytes itself without the chain's per-read machinery.
 *
 * <p>A virtual thread must not sleep in a selector (it would hold its carrier thread, and the
 * JDK makes up for that with another carrier), so for a virtual caller {@link #forCaller} hands the
 * reading back to the shared selector thread, and the caller parks until that thread has the
 * reply; the next platform-thread caller takes it over again. From then on the connection is read
 * through the chain only, since the chain may hold part of a frame the selector thread read.
 *
 * <p>One thread at a time may switch, wait or read; {@link #close()} may come from any thread and
 * wakes a waiting one.
 */
final class CallerThreadReader implements AutoCloseable {
    /** {@code Thread.isVirtual()} where the JDK has it (21 and later); null on 17. */
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();
    /**
     * The readiness selector has one key, so a select's count says all; selecting with an action
     * spares the selected-key set an insertion and a clear per call.
     */
    private static final Consumer<SelectionKey> IGNORE_KEY = key -> { };

    private final Connection<?> connection;
    private final ClientFrameTransport transport;
    private final Selector readiness;
    private final Duration switchTimeout;
    private DirectFraming direct;
    private boolean callerReads = true;

    private CallerThreadReader(Connection<?> connection, ClientFrameTransport transport, DirectFraming direct,
                               Selector readiness, Duration switchTimeout) {
        this.connection = connection;
        this.transport = transport;
        this.direct = direct;
        this.readiness = readiness;
        this.switchTimeout = switchTimeout;
    }

    /**
     * Takes the reading of {@code connection} over from its shared selector thread, waiting up to
     * {@code timeout} for that thread to let go (now and at every later switch), so that the two
     * never read at the same time. Frames read go to {@code transport}; {@code direct} (null for a
     * connection with TLS) reads and frames them without the filter chain.
     */
    static CallerThreadReader takeOver(Connection<?> connection, ClientFrameTransport transport, DirectFraming direct,
                                       Duration timeout) throws IOException {
        takeOverFromSelector((NIOConnection) connection, timeout);
        Selector readiness = Selector.open();
        try {
            ((NIOConnection) connection).getChannel().register(readiness, SelectionKey.OP_READ);
        } catch (IOException | RuntimeException e) {
            readiness.close();
            throw e;
        }
        return new CallerThreadReader(connection, transport, direct, readiness, timeout);
    }

    /**
     * Lets the current thread's call read the connection in the way that suits it: a platform
     * thread reads itself, a virtual thread leaves it to the selector thread. Call it before the
     * request is written.
     */
    void forCaller() throws IOException {
        boolean virtual = isVirtual();
        if (callerReads == !virtual) {
            return;
        }
        if (virtual) {
            if (direct != null && direct.hasUnread()) {
                throw new IOException("bytes no call asked for arrived from " + connection.getPeerAddress());
            }
            direct = null;
            connection.enableIOEvent(IOEvent.READ);
        } else {
            takeOverFromSelector((NIOConnection) connection, switchTimeout);
        }
        callerReads = !virtual;
    }

    /** True while the calling thread reads the connection; false while the selector thread does. */
    boolean callerReads() {
        return callerReads;
    }

    private static void takeOverFromSelector(NIOConnection nio, Duration timeout) throws IOException {
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
            throw new IOException("the selector thread did not release " + nio.getPeerAddress(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while taking over " + nio.getPeerAddress(), e);
        }
    }

    /**
     * Sleeps until input (or the end of the stream) is there, at most {@code timeoutNanos}; true if
     * it is. Returns false at the timeout, and early if the thread is interrupted or the reader closed.
     */
    boolean awaitInput(long timeoutNanos) throws IOException {
        long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos + 999_999));
        try {
            return readiness.select(IGNORE_KEY, millis) > 0;
        } catch (ClosedSelectorException e) {
            return false;
        }
    }

    /**
     * Reads what is there without waiting, if anything is; false once the reader is closed. While
     * the selector thread reads the connection there is nothing to do.
     */
    boolean readIfAny() throws IOException {
        if (!callerReads) {
            return readiness.isOpen();
        }
        try {
            if (readiness.selectNow(IGNORE_KEY) > 0) {
                read();
            }
            return true;
        } catch (ClosedSelectorException e) {
            return false;
        }
    }

    /**
     * Reads once from the socket on this thread and frames the bytes; a frame completed by them
     * reaches {@link ClientFrameTransport#onReply}, the end of the stream closes the connection.
     */
    void read() {
        if (direct != null) {
            direct.read(transport);
        } else {
            connection.getTransport().fireIOEvent(IOEvent.READ, connection, null);
        }
    }

    boolean isOpen() {
        return readiness.isOpen();
    }

    private static boolean isVirtual() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.isVirtual failed", e);
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
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
