package dev.grizzlyboot.thrift.transport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.thrift.TConfiguration;
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
 * it waits up to the read timeout for the reply frame. A timeout, a failed write or a closed
 * connection fails the call with a {@link TTransportException} and leaves the transport closed.
 *
 * <p>One call at a time may use it (a pool hands it to one caller at a time); the reply arrives on
 * a selector thread and is handed over safely. {@link #requestSent()} tells whether any request
 * bytes were handed to the socket since {@link #beginCall(Duration)}, which decides if a failed call
 * may be retried elsewhere without risking running it twice.
 */
public final class ClientFrameTransport extends FrameTransport {
    static final Attribute<ClientFrameTransport> ATTACHED =
            AttributeBuilder.DEFAULT_ATTRIBUTE_BUILDER.createAttribute(ClientFrameTransport.class.getName());

    private final Duration defaultReadTimeout;
    private Duration readTimeout;
    private volatile CompletableFuture<Buffer> reply;
    private volatile boolean closed;
    private boolean requestSent;

    /**
     * Attaches a transport to an open connection.
     *
     * @param connection    a connection whose filter chain has {@link ThriftFrameFilter} and {@link ThriftClientFilter}
     * @param configuration message-size limits for replies
     * @param readTimeout   how long a read waits for the reply after a request was sent, unless
     *                      {@link #beginCall(Duration)} sets another wait for one call
     * @throws TTransportException if the configuration is unusable
     */
    public ClientFrameTransport(Connection<?> connection, TConfiguration configuration, Duration readTimeout)
            throws TTransportException {
        super(connection, configuration);
        this.defaultReadTimeout = readTimeout;
        this.readTimeout = readTimeout;
        ATTACHED.set(connection, this);
        if (!connection.isOpen()) {
            closed = true;
        }
    }

    /**
     * Marks the start of a call; {@link #requestSent()} is false until its request is flushed.
     *
     * @param readTimeout how long this call waits for its reply, or null for the transport's default
     */
    public void beginCall(Duration readTimeout) {
        this.readTimeout = readTimeout == null ? defaultReadTimeout : readTimeout;
        requestSent = false;
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

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"}) // Grizzly's write generics cannot name Connection<?>'s address type
    void send(Buffer payload) throws TTransportException {
        if (!isOpen()) {
            throw new TTransportException(TTransportException.NOT_OPEN, "connection is closed");
        }
        // Armed before writing: the reply may arrive on a selector thread before write() returns.
        CompletableFuture<Buffer> pending = new CompletableFuture<>();
        reply = pending;
        requestSent = true;
        ((Connection) connection).write(payload, new EmptyCompletionHandler<WriteResult>() {
            @Override
            public void failed(Throwable error) {
                pending.completeExceptionally(
                        new TTransportException(TTransportException.UNKNOWN, "request write failed", error));
            }
        });
    }

    @Override
    Buffer awaitFrame() throws TTransportException {
        CompletableFuture<Buffer> pending = reply;
        if (pending == null) {
            throw new TTransportException(TTransportException.END_OF_FILE, "read without a request outstanding");
        }
        try {
            Buffer frame = pending.get(readTimeout.toNanos(), TimeUnit.NANOSECONDS);
            reply = null;
            return frame;
        } catch (TimeoutException e) {
            // A late reply would be taken for the next call's: the connection cannot be reused.
            close();
            throw new TTransportException(TTransportException.TIMED_OUT,
                    "no reply within " + readTimeout.toMillis() + " ms");
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

    /** Called by {@link ThriftClientFilter} on a selector thread with a complete reply frame. */
    void onReply(Buffer frame) {
        CompletableFuture<Buffer> pending = reply;
        if (pending == null || !pending.complete(frame)) {
            // Nobody asked for this frame: the request/reply pairing is lost.
            close();
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
    }

    @Override
    public void close() {
        closed = true;
        super.close();
    }
}
