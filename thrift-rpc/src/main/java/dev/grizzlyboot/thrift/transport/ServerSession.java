package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.thrift.observation.CallObserver;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TTransportException;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.IOEvent;
import org.glassfish.grizzly.nio.NIOConnection;
import org.glassfish.grizzly.nio.NIOTransport;
import org.glassfish.grizzly.nio.tmpselectors.TemporarySelectorPool;

/**
 * Per-connection server state: the transport and protocols reused for every call, the request
 * frames waiting for a worker, how many calls are pending (queued or running), and the replies
 * the client has not taken yet. A drain moves a session with no pending call to CLOSING, so a
 * call can never start on a connection that is being closed. The selector thread calls
 * {@link #offer}, one worker at a time runs the queue; reading stops while too many calls are
 * pending or too many reply bytes are queued, and resumes only when neither holds. With
 * connection readers, at most one worker at a time holds the connection and reads it instead of
 * the selector thread; a pause then leaves the selector's interest alone until it gives it back.
 */
final class ServerSession {
    private static final int CLOSING = -1;
    /**
     * Pending calls above which reading stops until the worker has caught up to half of it. Small,
     * because each may hold a frame of up to the maximum frame size; clients that wait for each
     * reply never have more than one pending.
     */
    static final int MAX_PENDING = 4;

    final Connection<?> connection;
    final ServerFrameTransport transport;
    final TProtocol in;
    final TProtocol out;
    /** Null when no observer is set. */
    final CallRecorder recorder;
    /** Null for a connection without a Grizzly NIO write queue. */
    final ReplyBacklog backlog;
    /** Pending calls, or CLOSING. */
    private final AtomicInteger pending = new AtomicInteger();
    private final Queue<Buffer> frames = new ConcurrentLinkedQueue<>();
    /** Reading is stopped because more than {@link #MAX_PENDING} calls are pending. */
    private volatile boolean tooManyCalls;
    /** Reading is stopped because the backlog is full; guarded by this. */
    private boolean tooManyReplies;
    /**
     * The client has sent all it will (end of input): nothing more is read. Set holding this;
     * volatile because every call's end reads it.
     */
    private volatile boolean inputEnded;
    /** Guarded by this. */
    private boolean readPaused;
    /** A worker reads the connection instead of its selector thread; guarded by this. */
    private boolean heldByReader;
    /** Null unless this session frames its own requests (the connection-reader strategy). */
    final FrameAssembler assembler;
    /** Null unless a worker may hold the connection. */
    final ConnectionReader reader;
    /** When the last call ended ({@link System#nanoTime()}), or 0; kept only for connection readers. */
    private volatile long lastCallEnded;

    ServerSession(Connection<?> connection, TConfiguration configuration, TProtocolFactory protocols,
                  CallObserver observer, String defaultService, FrameWriteQueue direct, IdleClock idleClock,
                  ThriftFrameFilter ownFraming, TemporarySelectorPool readerSelectors) throws TTransportException {
        this.connection = connection;
        assembler = ownFraming != null ? new FrameAssembler(ownFraming) : null;
        reader = ownFraming != null && direct != null ? new ConnectionReader(this, (NIOConnection) connection, readerSelectors) : null;
        backlog = connection instanceof NIOConnection nio ? new ReplyBacklog(nio) : null;
        transport = new ServerFrameTransport(connection, configuration, direct, idleClock);
        TProtocol wireIn = new OwnedBinaryProtocol(protocols.getProtocol(transport), transport);
        TProtocol wireOut = protocols.getProtocol(transport);
        if (observer == null) {
            recorder = null;
            in = wireIn;
            out = wireOut;
        } else {
            recorder = new CallRecorder(observer, defaultService, wireIn, wireOut);
            in = recorder.in;
            out = recorder.out;
        }
    }

    /** Tells the observer, if any, how the call that just ran ended. */
    void recordEnd(Throwable error) {
        if (recorder != null) {
            recorder.ended(error);
        }
    }

    /** Counts a call that runs right away; returns false when the connection is closing and it must not run. */
    boolean beginCall() {
        return enter() > 0;
    }

    /**
     * Queues a request frame for the worker; returns true when no worker is running this queue and
     * the caller must start one with {@link #nextFrame()} and {@link #endCall()} in a loop. A frame
     * for a closing connection is dropped. Reading stops while more than {@link #MAX_PENDING} calls
     * are pending, so a client that does not wait for replies cannot queue without bound.
     */
    boolean offer(Buffer frame) {
        frames.offer(frame);
        int now = enter();
        if (now > MAX_PENDING) {
            synchronized (this) {
                if (!tooManyCalls && pending.get() > MAX_PENDING) {
                    tooManyCalls = true;
                    updateReading();
                }
            }
        }
        return now == 1;
    }

    /** Returns the oldest queued frame; there is one for every pending call not yet taken. */
    Buffer nextFrame() {
        return frames.poll();
    }

    /** Ends a call and returns how many are still pending. */
    int endCall() {
        if (reader != null) {
            lastCallEnded = System.nanoTime();
        }
        int left = pending.decrementAndGet();
        if (tooManyCalls) {
            synchronized (this) {
                if (tooManyCalls && pending.get() <= MAX_PENDING / 2) {
                    tooManyCalls = false;
                    updateReading();
                }
            }
        }
        return left;
    }

    /**
     * Returns false while the backlog has room for another reply. Otherwise stops reading until
     * the client has taken enough of its replies, then runs {@code drained} on the thread that
     * drained the backlog, and returns true. For the worker of queued calls, which asks before
     * each call, so that no reply is made while more than {@link ReplyBacklog#LIMIT} bytes wait.
     */
    boolean pauseWhileBacklogFull(Runnable drained) {
        if (!backlogFull()) {
            return false;
        }
        synchronized (this) {
            tooManyReplies = true;
            updateReading();
        }
        backlog.whenDrained(() -> {
            synchronized (this) {
                tooManyReplies = false;
                updateReading();
            }
            drained.run();
        });
        return true;
    }

    /** True while the connection's write queue holds more than {@link ReplyBacklog#LIMIT} bytes of replies. */
    boolean backlogFull() {
        return backlog != null && backlog.full();
    }

    /**
     * True while replies wait in the write queue for the client to take them: the connection is
     * not idle then, as its client still has replies to read, and what they hold is bounded.
     */
    boolean waitingForClient() {
        return backlog != null && backlog.waiting();
    }

    /**
     * Hands reading from the selector thread to a worker; call it on the selector thread between
     * two selects. Refuses while another worker holds it (its take and a second worker's can
     * both be asked for), while reading is paused, and once closing. Calls may be pending: the
     * worker that asked runs them before it reads ({@link #noCallPending()}).
     */
    synchronized boolean takeFromSelector() {
        if (heldByReader || readPaused || !connection.isOpen()) {
            return false;
        }
        heldByReader = true;
        setReading(false);
        return true;
    }

    /**
     * True while no call is queued or running and the connection is not closing: only then may a
     * worker that was handed reading start to read, as calls queued before the hand-over would
     * otherwise run after ones it reads, or at the same time on another worker.
     */
    boolean noCallPending() {
        return pending.get() == 0;
    }

    /**
     * When the connection's last call ended ({@link System#nanoTime()}), or 0 before the first;
     * kept only for connection readers.
     */
    long lastCallEnded() {
        return lastCallEnded;
    }

    /**
     * True if the connection's last call ended less than {@code nanos} ago: its client calls again
     * soon after a reply, so a worker that waits that long for its next request will see it.
     */
    boolean lastCallEndedWithin(long nanos) {
        long last = lastCallEnded;
        return last != 0 && System.nanoTime() - last < nanos;
    }

    /** Hands reading back to the selector thread, which reads right away unless reading is paused. */
    synchronized void giveToSelector() {
        heldByReader = false;
        if (!readPaused) {
            setReading(true);
        }
    }

    /** True while the worker that holds the connection may go on reading it. */
    synchronized boolean mayRead() {
        return !readPaused && pending.get() != CLOSING;
    }

    /**
     * Notes that the client's input ended: reading stops for good (the selector would otherwise
     * find the end of input again at every select), and the calls already read go on to reply.
     * Returns true if none is pending and the session is now closing.
     */
    boolean endInput() {
        synchronized (this) {
            inputEnded = true;
            updateReading();
        }
        return closeIfIdle();
    }

    /** True once the client's input ended: the connection closes as soon as no call is pending. */
    boolean inputEnded() {
        return inputEnded;
    }

    /** Returns true if no call was pending and the session is now closing; false while calls are pending. */
    boolean closeIfIdle() {
        return pending.compareAndSet(0, CLOSING) || pending.get() == CLOSING;
    }

    /** Reads while neither too many calls are pending nor too many replies queued; holds this. */
    private void updateReading() {
        boolean pause = tooManyCalls || tooManyReplies || inputEnded;
        if (pause != readPaused) {
            readPaused = pause;
            if (!heldByReader) {
                // A worker that holds the connection sees the pause after its call and gives it back paused.
                setReading(!pause);
            }
        }
    }

    private void setReading(boolean reading) {
        try {
            if (connection instanceof NIOConnection nio) {
                // Every change of read interest is made on the selector thread. Grizzly changes a
                // key's interest by reading it and setting it anew; it turns interest on only on the
                // selector thread but off on whichever thread asks. A pause from a worker (a full
                // backlog) could then drop the write interest the selector thread turns on at the
                // same moment, and leave replies queued with nothing writing them; and a resume
                // asked for from a worker would run after a later pause and undo it. So the
                // selector thread applies whatever is wanted when it runs.
                ((NIOTransport) nio.getTransport()).getSelectorHandler()
                        .execute(nio.getSelectorRunner(), this::applyReading, null);
            } else if (reading) {
                connection.enableIOEvent(IOEvent.READ);
            } else {
                connection.disableIOEvent(IOEvent.READ);
            }
        } catch (IOException e) {
            // Only a closed connection refuses; its pending calls fail on their own.
            connection.closeSilently();
        }
    }

    /**
     * Runs on the selector thread: turns read interest on unless reading is paused or a worker
     * holds the connection (two readers would split its frames), and off otherwise.
     */
    private synchronized boolean applyReading() throws IOException {
        if (!readPaused && !heldByReader) {
            connection.enableIOEvent(IOEvent.READ);
        } else {
            connection.disableIOEvent(IOEvent.READ);
        }
        return true;
    }

    /** Adds a pending call unless closing; returns the new count, or CLOSING. */
    private int enter() {
        while (true) {
            int now = pending.get();
            if (now == CLOSING) {
                return CLOSING;
            }
            if (pending.compareAndSet(now, now + 1)) {
                return now + 1;
            }
        }
    }
}
