package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TTransportException;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.EmptyCompletionHandler;
import org.glassfish.grizzly.WriteResult;
import org.glassfish.grizzly.attributes.Attribute;
import org.glassfish.grizzly.attributes.AttributeBuilder;

/**
 * The client side of one Grizzly connection whose filter chain ends with
 * {@link ThriftClientFilter}: {@code flush()} sends the request frame, and the first read after
 * it waits up to the read timeout for the reply frame. Calls write and read through
 * {@link #protocol()}, which numbers every message so that a reply reaches its call only if its
 * sequence id, method name and message type match; a frame that matches no call fails the waiting
 * call and closes the connection (a oneway call's error reply is logged and dropped). A timeout, a
 * failed write or a closed connection also fails the call with a {@link TTransportException} and
 * leaves the transport closed.
 *
 * <p>One call at a time may use it (a pool hands it to one caller at a time), and that caller's
 * thread reads the reply itself through a {@link CallerThreadReader}: the kernel wakes it when the
 * reply arrives, with no selector thread in between (a virtual thread instead parks until the
 * selector thread has read the reply for it). On a connection without TLS the calling thread also
 * frames requests and replies itself ({@link DirectFraming}), without Grizzly's filter chain.
 * Between calls nothing reads the connection,
 * so {@link #readIdleInput()} picks up what came meanwhile before the next call. A close from any
 * other thread fails a waiting call at once. {@link #requestSent()} tells whether any request bytes
 * were handed to the socket since {@link #beginCall(Duration)}, which decides if a failed call may
 * be retried elsewhere without risking running it twice.
 */
public final class ClientFrameTransport extends FrameTransport {
    static final Attribute<ClientFrameTransport> ATTACHED =
            AttributeBuilder.DEFAULT_ATTRIBUTE_BUILDER.createAttribute(ClientFrameTransport.class.getName());

    private final Duration defaultReadTimeout;
    private final ReplyMatcher matcher;
    private final TProtocol protocol;
    private final CallerThreadReader reader;
    private final DirectFraming direct;
    private final WriteFailure writeFailure = new WriteFailure();
    private Duration readTimeout;
    private volatile CompletableFuture<Buffer> reply;
    private volatile boolean closed;
    private boolean requestSent;
    private boolean requestRefused;

    /**
     * Attaches a transport to an open connection.
     *
     * @param connection    a connection whose filter chain has {@link ThriftFrameFilter} and {@link ThriftClientFilter}
     * @param configuration message-size limits for replies
     * @param protocols     the wire protocol inside each frame
     * @param readTimeout   how long a read waits for the reply after a request was sent, unless
     *                      {@link #beginCall(Duration)} sets another wait for one call
     * @throws TTransportException if the configuration is unusable, or the connection's selector
     *                             thread did not hand its reading over within {@code readTimeout}
     */
    public ClientFrameTransport(Connection<?> connection, TConfiguration configuration, TProtocolFactory protocols,
                                Duration readTimeout) throws TTransportException {
        super(connection, configuration);
        this.defaultReadTimeout = readTimeout;
        this.matcher = new ReplyMatcher(protocols, configuration);
        this.protocol = new CallMatchingProtocol(protocols.getProtocol(this), this);
        this.readTimeout = readTimeout;
        try {
            this.direct = DirectFraming.ifPlain(connection);
            this.reader = CallerThreadReader.takeOver(connection, this, direct, readTimeout);
        } catch (IOException e) {
            throw new TTransportException(TTransportException.NOT_OPEN, e.getMessage(), e);
        }
        ATTACHED.set(connection, this);
        if (!connection.isOpen()) {
            onClosed();
        }
    }

    /**
     * Returns the protocol calls must write and read through, so that replies are matched to them.
     *
     * @return this connection's protocol, for one call at a time
     */
    public TProtocol protocol() {
        return protocol;
    }

    /**
     * Marks the start of a call; {@link #requestSent()} is false until its request is flushed.
     * Call it on the thread that makes the call: a virtual thread has its reply read by the
     * selector thread (it must not sleep in a selector), a platform thread reads its own.
     *
     * @param readTimeout how long this call waits for its reply, or null for the transport's default
     * @throws TTransportException if the connection's reading could not be switched to suit this
     *                             thread; the connection is then closed and no request was sent
     */
    public void beginCall(Duration readTimeout) throws TTransportException {
        this.readTimeout = readTimeout == null ? defaultReadTimeout : readTimeout;
        requestSent = false;
        requestRefused = false;
        try {
            reader.forCaller();
        } catch (IOException e) {
            close();
            throw new TTransportException(TTransportException.NOT_OPEN, e.getMessage(), e);
        }
    }

    /**
     * Tells whether the current call's request was handed to the connection, so the server may have
     * received it.
     *
     * @return true once a request frame was written in this call
     */
    public boolean requestSent() {
        return requestSent;
    }

    /**
     * Tells whether the current call's request was refused unsent because it is larger than the
     * maximum frame size: the call would fail the same way on any connection, and this one stays
     * usable.
     *
     * @return true if the request was too large to send
     */
    public boolean requestRefused() {
        return requestRefused;
    }

    /**
     * Returns the connection's remote address, for messages.
     *
     * @return the peer address
     */
    public Object peerAddress() {
        return connection.getPeerAddress();
    }

    @Override
    public boolean isOpen() {
        return !closed && connection.isOpen();
    }

    /**
     * Reads what arrived while no call used the connection (the server closing it, or the error
     * reply to an earlier oneway call), without waiting, and tells whether the connection is still
     * open for the next call. Call it only while no call is in progress.
     *
     * @return true if the connection can carry a call
     */
    public boolean readIdleInput() {
        try {
            return reader.readIfAny() && isOpen();
        } catch (IOException e) {
            close();
            return false;
        }
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"}) // Grizzly's write generics cannot name Connection<?>'s address type
    void send(byte[] frame, int length) throws TTransportException {
        if (length > getMaxFrameSize()) {
            // Nothing is sent, so no reply is owed: the connection stays in step for the next call.
            matcher.abandon();
            reply = null;
            requestRefused = true;
            throw new TTransportException(TTransportException.CORRUPTED_DATA,
                    "message of " + length + " bytes exceeds the maximum frame size of " + getMaxFrameSize());
        }
        if (!isOpen()) {
            throw new TTransportException(TTransportException.NOT_OPEN, "connection is closed");
        }
        requestSent = true;
        if (direct != null) {
            direct.write(frame, length, writeFailure);
        } else {
            ((Connection) connection).write(payload(frame, length), writeFailure);
        }
    }

    /**
     * Fails the waiting call and closes the connection when a request write fails. One handler
     * serves every write: whichever call waits when a write fails could not get its reply over the
     * connection this closes, so failing that call is right even if the write was an earlier one's.
     */
    private final class WriteFailure extends EmptyCompletionHandler<WriteResult> {
        @Override
        public void failed(Throwable error) {
            CompletableFuture<Buffer> pending = reply;
            if (pending != null) {
                pending.completeExceptionally(
                        new TTransportException(TTransportException.UNKNOWN, "request write failed", error));
            }
            close();
        }
    }

    /**
     * Called by {@link CallMatchingProtocol} as a message is written: a call that expects a reply
     * starts waiting for it before its request can leave, since the reply may arrive on a selector
     * thread before {@code write()} returns.
     */
    int register(String name, byte type) {
        if (type != TMessageType.ONEWAY) {
            reply = new CompletableFuture<>();
        }
        return matcher.register(name, type);
    }

    @Override
    Buffer awaitFrame() throws TTransportException {
        CompletableFuture<Buffer> pending = reply;
        if (pending == null) {
            throw new TTransportException(TTransportException.END_OF_FILE, "read without a request outstanding");
        }
        try {
            Buffer frame = reader.callerReads()
                    ? readOwnReply(pending)
                    : pending.get(readTimeout.toNanos(), TimeUnit.NANOSECONDS);
            reply = null;
            return frame;
        } catch (TimeoutException e) {
            throw timedOut();
        } catch (IOException e) {
            close();
            throw new TTransportException(TTransportException.UNKNOWN, "reading the reply failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new TTransportException(TTransportException.UNKNOWN, "interrupted while waiting for the reply", e);
        } catch (ExecutionException e) {
            close();
            if (e.getCause() instanceof TTransportException transportFailure) {
                throw transportFailure;
            }
            throw new TTransportException(TTransportException.UNKNOWN, e.getCause());
        }
    }

    /** Waits for input and reads it on this thread until the reply is there or the read timeout passes. */
    private Buffer readOwnReply(CompletableFuture<Buffer> pending)
            throws TTransportException, IOException, InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + readTimeout.toNanos();
        while (!pending.isDone()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw timedOut();
            }
            if (reader.awaitInput(left)) {
                reader.read();
            } else if (Thread.currentThread().isInterrupted()) {
                close();
                throw new TTransportException(TTransportException.UNKNOWN, "interrupted while waiting for the reply");
            } else if (!reader.isOpen() && !pending.isDone()) {
                close();
                throw new TTransportException(TTransportException.END_OF_FILE, "connection closed");
            }
        }
        return pending.get();
    }

    private TTransportException timedOut() {
        // The late reply would be refused by the matcher anyway; closing spares the next call that failure.
        matcher.abandon();
        close();
        return new TTransportException(TTransportException.TIMED_OUT, "no reply within " + readTimeout.toMillis() + " ms");
    }

    /** Called by {@link ThriftClientFilter}, normally on the calling thread, with a complete reply frame. */
    void onReply(Buffer frame) {
        CompletableFuture<Buffer> pending = reply;
        switch (matcher.classify(frame, connection.getPeerAddress())) {
            case DELIVER:
                pending.complete(frame);
                break;
            case DROP:
                break;
            default:
                if (pending != null) {
                    pending.completeExceptionally(new TTransportException(TTransportException.CORRUPTED_DATA,
                            "reply out of step, connection closed: " + matcher.refusal()));
                }
                close();
        }
    }

    /** Called by {@link ThriftFrameFilter} before it closes the connection over a frame it does not take. */
    void onFrameRefused(String reason) {
        CompletableFuture<Buffer> pending = reply;
        if (pending != null) {
            pending.completeExceptionally(new TTransportException(TTransportException.CORRUPTED_DATA,
                    "reply " + reason + ", connection closed"));
        }
    }

    /** Called by {@link ThriftClientFilter} when the connection closed. */
    void onClosed() {
        closed = true;
        CompletableFuture<Buffer> pending = reply;
        if (pending != null) {
            pending.completeExceptionally(
                    new TTransportException(TTransportException.END_OF_FILE, "connection closed by the server"));
        }
        // After failing the call: a caller woken by this sees the failure, not a bare close.
        reader.close();
    }

    @Override
    public void close() {
        closed = true;
        super.close();
        reader.close();
    }
}
