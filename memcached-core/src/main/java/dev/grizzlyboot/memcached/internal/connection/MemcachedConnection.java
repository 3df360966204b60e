package dev.grizzlyboot.memcached.internal.connection;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.UnresolvedAddressException;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

import dev.grizzlyboot.memcached.AuthenticationException;
import dev.grizzlyboot.memcached.MemcachedConnectionException;
import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.MemcachedProtocolException;
import dev.grizzlyboot.memcached.ServerStatus;
import dev.grizzlyboot.memcached.TlsHandshakeException;
import dev.grizzlyboot.memcached.internal.protocol.BinaryProtocolFilter.MemcachedProtocolIOException;
import dev.grizzlyboot.memcached.internal.protocol.BinaryProtocolFilter.TextErrorLineIOException;
import dev.grizzlyboot.memcached.internal.protocol.Operation;
import dev.grizzlyboot.memcached.internal.protocol.Response;
import dev.grizzlyboot.memcached.internal.protocol.SaslPlainOperation;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.CloseReason;
import org.glassfish.grizzly.CompletionHandler;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.EmptyCompletionHandler;
import org.glassfish.grizzly.Grizzly;
import org.glassfish.grizzly.WriteResult;
import org.glassfish.grizzly.attributes.Attribute;
import org.glassfish.grizzly.filterchain.FilterChainContext;

/**
 * One pipelined socket to a memcached server. Callers append operations to an outbound queue.
 * When nothing is in flight the caller writes the queue itself (no thread hop: the lowest latency
 * for a lone caller); otherwise the operation waits for the end of the next batch of responses
 * read on this connection, where the I/O thread drains everything queued into one buffer and one
 * write, so under load many operations share a syscall. Written operations wait in an in-flight
 * queue in write order; memcached answers in order, so each response belongs to the oldest
 * in-flight operation, and its opaque proves it (on a text connection, which carries only bulk
 * reads, the keys of its answers do).
 *
 * <p>A new connection is set up before it carries requests: the TLS handshake when TLS is on,
 * then the SASL PLAIN login when there are credentials, or, on a text connection, the
 * {@link TextProtocolCheck}; callers' operations wait in the outbound
 * queue meanwhile, and the connect timeout bounds the whole set-up. A failed handshake or a
 * refused login closes the connection as a failed connect, so the pool backs off and the callers
 * get the {@link TlsHandshakeException} or {@link AuthenticationException}.
 * So does an {@code AUTHENTICATION_ERROR} answer to a request (memcached {@code -S} and a client
 * without credentials), after which memcached closes the connection.
 * A server that closes a text connection without a byte in answer to its check does not speak the text
 * protocol: the pool is told so ({@link ConnectionPool#refusedText}), not that a connection was
 * lost, and sends the bulk reads queued here over the binary protocol.
 *
 * <p>No operation is stranded in the outbound queue: a caller that leaves its operation there
 * has seen, after queueing it, another operation in flight, whose response ends a read batch
 * that drains the queue later; a thread that finds the flush flag taken leaves the queue to the
 * holder, which checks it again after releasing the flag; connection loss and timeouts fail what
 * is queued. As a backstop, the sweeper writes the queue when nothing has been written or
 * answered for 100 ms.
 *
 * <p>Threading: {@link #send} from any thread; responses, read-batch ends and close events on
 * the I/O thread; {@link #sweep} and {@link #closeIfIdle} on the sweeper thread. Only the thread
 * holding the flush flag touches the opaque counter and the batch list.
 */
final class MemcachedConnection {

    static final Attribute<MemcachedConnection> ATTRIBUTE =
            Grizzly.DEFAULT_ATTRIBUTE_BUILDER.createAttribute(MemcachedConnection.class.getName());

    private static final int MAX_WRITE_BYTES = 256 * 1024;
    /** Queued requests wait for an answer at most this long before the sweeper writes them anyway. */
    private static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private enum State { CONNECTING, OPEN, CLOSED }

    private final String server;
    private final ConnectionPool pool;
    private final ClientTransport transport;
    private final boolean text;
    private final long createdNanos = System.nanoTime();
    private final Queue<Operation<?>> outbound = new ConcurrentLinkedQueue<>();
    private final Queue<Operation<?>> inFlight = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicBoolean flushing = new AtomicBoolean();
    private final AtomicBoolean poolNotified = new AtomicBoolean();
    private final List<Operation<?>> batch = new ArrayList<>();
    /** Registered by {@link ReadBatchEndFilter} on every read event of this connection. */
    final FilterChainContext.CompletionListener drainAfterRead = context -> flush(false);
    @SuppressWarnings("rawtypes")
    private final CompletionHandler writeFailure = new EmptyCompletionHandler<WriteResult>() {
        @Override
        public void failed(Throwable error) {
            // A write queued as the server's refusal closed the connection fails with it: the refusal is the news.
            close(error instanceof TextErrorLineIOException line ? textErrorLine(line)
                    : new MemcachedConnectionException("writing to " + server + " failed: " + error, error));
        }
    };
    private volatile State state = State.CONNECTING;
    private volatile Connection<?> connection;
    private volatile MemcachedException closeError;
    private volatile long lastActiveNanos = createdNanos;
    private volatile boolean answered;
    /**
     * Set once, before the close is handled, when the server answered this connection with a text
     * error line and nothing else, such as memcached at its connection limit ({@code -c}), which
     * writes {@code ERROR Too many open connections} and closes without reading a byte: a failed
     * connect, and what was written here was never executed.
     */
    private volatile boolean refusedByServer;
    /** Whether any byte has come from the server, a partial answer included. */
    private volatile boolean heardFrom;
    /** The set-up exchange (authentication, or the text protocol check) in progress, answered before anything else. */
    private volatile Operation<?> setup;
    private int nextOpaque;

    /** @param text whether the connection speaks the text protocol (bulk reads only) rather than binary */
    MemcachedConnection(String server, ConnectionPool pool, ClientTransport transport, boolean text) {
        this.server = server;
        this.pool = pool;
        this.transport = transport;
        this.text = text;
    }

    void connect(InetSocketAddress address) {
        transport.connect(address, text, new EmptyCompletionHandler<>() {
            @Override
            public void completed(Connection result) {
                onConnected(result, address);
            }

            @Override
            public void failed(Throwable error) {
                // A name that does not resolve fails with an UnresolvedAddressException, which has no message.
                String reason = error instanceof UnresolvedAddressException
                        ? "cannot resolve the host name " + address.getHostString() : error.getMessage();
                close(new MemcachedConnectionException("could not connect to " + server + ": " + reason, error));
            }
        });
    }

    /** Queues an operation; writes the queue now if nothing is in flight, else leaves it to the I/O thread. */
    void send(Operation<?> operation) {
        operation.assignServer(server);
        pending.incrementAndGet();
        outbound.add(operation);
        State current = state;
        if (current == State.OPEN) {
            flush(true);
        } else if (current == State.CLOSED) {
            failQueued(closeError);
        }
    }

    /** Operations queued or in flight: the pool balances on this. */
    int pending() {
        return pending.get();
    }

    boolean isUsable() {
        return state != State.CLOSED;
    }

    boolean isOpen() {
        return state == State.OPEN;
    }

    /** Bytes came from the server ({@link ReadBatchEndFilter}, on every read event, before they are decoded). */
    void heard() {
        if (!heardFrom) {
            heardFrom = true;
        }
    }

    /** Whether the server has answered anything on this connection. */
    boolean answeredAny() {
        return answered;
    }

    /**
     * Writes what callers queued if nothing has been written or answered for a while: a server
     * that answers only once it has more requests (or a slow one) must not hold them back.
     */
    void drainIfStalled(long nowNanos) {
        if (nowNanos - lastActiveNanos > STALL_NANOS) {
            flush(false);
        }
    }

    private long idleNanos(long nowNanos) {
        return pending.get() == 0 ? nowNanos - lastActiveNanos : 0;
    }

    /**
     * Closes the connection if nothing has been queued, written or answered on it for longer than
     * {@code limitNanos}. A caller may choose it at that very moment: the check runs under the flush
     * flag and no flush writes once a close has begun, so what the caller queues is never written
     * here; the close hands it back to the pool, which sends it on another connection.
     *
     * @return true if the connection is closing
     */
    boolean closeIfIdle(long nowNanos, long limitNanos) {
        if (idleNanos(nowNanos) <= limitNanos || !flushing.compareAndSet(false, true)) {
            return false;
        }
        MemcachedException reason;
        try {
            if (pending.get() != 0 || closeError != null) {
                return false;
            }
            reason = new MemcachedConnectionException("idle connection to " + server + " closed");
            closeError = reason;
        } finally {
            flushing.set(false);
        }
        close(reason);
        return true;
    }

    /**
     * Fails operations past their deadline; closes the connection if connecting takes too long.
     *
     * @return how many operations this sweep timed out
     */
    int sweep(long nowNanos, long connectTimeoutNanos) {
        if (state == State.CONNECTING && nowNanos - createdNanos > connectTimeoutNanos) {
            close(new MemcachedConnectionException("connecting to " + server + " timed out after "
                    + TimeUnit.NANOSECONDS.toMillis(connectTimeoutNanos) + " ms"));
            return 0;
        }
        return timeOutExpired(outbound, nowNanos) + timeOutExpired(inFlight, nowNanos);
    }

    /** Closes the connection and fails everything queued or in flight with {@code error}. */
    void close(MemcachedException error) {
        if (closeError == null) {
            closeError = error;
        }
        Connection<?> current = connection;
        if (current != null && current.isOpen()) {
            // The close listener finishes the job on the I/O thread.
            current.closeWithReason(new IOException(error.getMessage(), error));
        } else {
            onClosed(error);
        }
    }

    void onResponse(Response response) {
        if (closeError != null) {
            // Closing (a mismatch earlier in this read, a timeout, the client): what the server sent
            // after it answers nobody. Grizzly may run the close listener later, so without this the
            // next response of the same read could complete the operation the mismatch condemned.
            return;
        }
        if (state == State.CONNECTING) {
            onSetupResponse(response);
            return;
        }
        Operation<?> oldest = inFlight.peek();
        String mismatch = oldest == null ? "opaque " + response.opaque() + " does not answer the oldest request in flight (none)"
                : oldest.mismatch(response);
        if (mismatch != null) {
            // Whatever the server answers next cannot be trusted to belong to anyone.
            close(new MemcachedProtocolException("response from " + server + " rejected: " + mismatch));
            return;
        }
        if (response.status() == ServerStatus.AUTHENTICATION_ERROR.code()) {
            // memcached -S answers a request made without a login so and then closes the connection:
            // what is in flight fails with the refusal, not as a lost connection, and it counts as a
            // refused login (the pool backs off) rather than as a server fault.
            close(new AuthenticationException(ServerStatus.AUTHENTICATION_ERROR, oldest.statusError(response).getMessage()
                    + " (the server requires a SASL login" + (transport.security().credentials() == null
                            ? " and the client has no credentials)" : ")")));
            return;
        }
        answered = true;
        if (!oldest.isLast(response)) {
            oldest.onResponse(response);
            return;
        }
        // Off the books before the future completes: a caller it wakes sees this connection without it.
        inFlight.poll();
        pending.decrementAndGet();
        lastActiveNanos = System.nanoTime();
        oldest.onResponse(response);
        pool.answered();
    }

    private void onConnected(Connection<?> opened, InetSocketAddress address) {
        ATTRIBUTE.set(opened, this);
        opened.addCloseListener((closeable, type) -> onClosed(errorFor(opened.getCloseReason())));
        connection = opened;
        if (state == State.CLOSED) {
            opened.closeSilently();
            return;
        }
        transport.handshake(opened, address.getHostString(), address.getPort(), new EmptyCompletionHandler<SSLEngine>() {
            @Override
            public void completed(SSLEngine engine) {
                authenticate();
            }

            @Override
            public void failed(Throwable error) {
                close(new TlsHandshakeException("TLS handshake with " + server + " failed: " + error.getMessage(), error));
            }
        });
    }

    private void authenticate() {
        SaslCredentials credentials = transport.security().credentials();
        if (text) {
            // memcached's SASL is binary only; a client with credentials makes no text connections.
            setUp(TextProtocolCheck.operation(), "checking that " + server + " speaks the text protocol failed: ");
            return;
        }
        if (credentials == null) {
            open();
            return;
        }
        setUp(new SaslPlainOperation(credentials.username(), credentials.password()), "authenticating to " + server + " failed: ");
    }

    /** Sends the set-up exchange {@code exchange}; the connection opens once it completes, and closes if it fails. */
    private void setUp(Operation<?> exchange, String failure) {
        exchange.assignServer(server);
        setup = exchange;
        exchange.future().whenComplete((ignored, error) -> {
            if (error == null) {
                open();
            } else {
                close(error instanceof MemcachedException memcached ? memcached
                        : new MemcachedConnectionException(failure + error, error));
            }
        });
        // Still connecting, so no flush can run: this thread owns the opaque counter.
        Buffer buffer = encode(List.of(exchange), exchange.encodedLength());
        nextOpaque += exchange.requestCount();
        write(buffer);
    }

    private void onSetupResponse(Response response) {
        Operation<?> current = setup;
        String mismatch = current == null ? "opaque " + response.opaque() + " while no set-up exchange is in flight"
                : current.mismatch(response);
        if (mismatch != null) {
            close(new MemcachedProtocolException("response from " + server + " rejected while the connection was being set up: "
                    + mismatch));
            return;
        }
        if (current.isLast(response)) {
            setup = null;
        }
        current.onResponse(response);
    }

    private void open() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.OPEN;
        pool.connected();
        flush(true);
    }

    private void onClosed(MemcachedException error) {
        // Every close this client makes goes through close(), which records its reason first.
        boolean byPeer = closeError == null;
        if (closeError == null) {
            closeError = error;
        }
        // A TLS or login refusal, or a connection refused with an error line, is a failed connect,
        // whenever it comes: the pool backs off.
        boolean wasConnecting = state == State.CONNECTING || closeError instanceof TlsHandshakeException
                || closeError instanceof AuthenticationException || refusedByServer;
        // A server that breaks the protocol is as unhealthy as one that drops the connection.
        boolean serverFault = !wasConnecting && (byPeer || closeError instanceof MemcachedProtocolException);
        // Leave the pool first: a caller whose operation fails below may retry at once and must
        // not be routed to this connection again. And leave it before being marked closed: a pool
        // still listing a closed connection counts it against its maximum, so a caller in between
        // would find no usable connection and no room to open one, and fail as if the server were
        // unreachable. Until the mark, a caller may still choose this connection; what it queues
        // is handed back to the pool below (no flush writes once closeError is set).
        Operation<?> unfinished = setup;
        if (poolNotified.compareAndSet(false, true)) {
            if (refusesText(byPeer, unfinished)) {
                pool.refusedText(this);
            } else {
                pool.closed(this, wasConnecting, serverFault, closeError);
            }
        }
        state = State.CLOSED;
        setup = null;
        if (unfinished != null) {
            unfinished.fail(closeError);
        }
        failQueued(closeError);
    }

    /**
     * Whether the server closed this text connection while its {@link TextProtocolCheck} was
     * unanswered: it does not speak the text protocol, which is no fault of its health. Garbage
     * in answer (a protocol error), a failed TLS exchange, or part of an answer is not that: the
     * server spoke, and something is wrong (memcached {@code -B binary} closes without a byte; a
     * text server dying while it answers leaves half a line).
     */
    private boolean refusesText(boolean byPeer, Operation<?> unfinished) {
        return text && byPeer && state == State.CONNECTING && unfinished != null && !heardFrom
                && !(closeError instanceof MemcachedProtocolException) && !(closeError instanceof TlsHandshakeException);
    }

    private MemcachedException errorFor(CloseReason reason) {
        if (closeError != null) {
            return closeError;
        }
        IOException cause = reason == null ? null : reason.getCause();
        if (cause instanceof MemcachedProtocolIOException protocol) {
            return protocol.protocolError();
        }
        if (cause instanceof TextErrorLineIOException line) {
            return textErrorLine(line);
        }
        if (cause != null && cause.getCause() instanceof MemcachedException memcached) {
            return memcached;
        }
        if (isTlsFailure(cause)) {
            // Under TLS 1.3 the server refuses a client certificate only after the client's handshake is done.
            return new TlsHandshakeException("TLS with " + server + " failed: " + cause.getMessage(), cause);
        }
        return new MemcachedConnectionException("connection to " + server + " lost: " + why(cause), cause);
    }

    /**
     * What a text error line in place of binary responses means: before any answer, the server
     * refused the connection (recorded here, where the cause is known, for {@link #onClosed}); after
     * one, it may have executed what it was sent, and only broke the protocol.
     */
    private MemcachedException textErrorLine(TextErrorLineIOException line) {
        if (answered) {
            return new MemcachedProtocolException("garbage from " + server + ": a text line where a binary response was due: "
                    + line.line());
        }
        refusedByServer = true;
        return new MemcachedConnectionException(server + " refused the connection: " + line.line());
    }

    private static String why(IOException cause) {
        if (cause == null || cause instanceof EOFException) {
            return "the server closed it";
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
    }

    private static boolean isTlsFailure(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Drains the outbound queue unless another thread holds the flush flag. With {@code onlyWhenIdle}
     * (a caller, or the first write after connecting) it stops as soon as something is in flight:
     * the response to that ends a read batch, whose drain (on the I/O thread) writes what was
     * queued meanwhile, in one write.
     */
    private void flush(boolean onlyWhenIdle) {
        while (!outbound.isEmpty() && state == State.OPEN && (!onlyWhenIdle || inFlight.isEmpty())
                && flushing.compareAndSet(false, true)) {
            try {
                if (closeError != null) {
                    // Closing: what is queued goes back to the pool when the close completes.
                    return;
                }
                writeBatch();
            } catch (RuntimeException e) {
                close(new MemcachedConnectionException("writing to " + server + " failed: " + e, e));
            } finally {
                flushing.set(false);
            }
        }
    }

    private void writeBatch() {
        int bytes = 0;
        Operation<?> operation;
        while (bytes < MAX_WRITE_BYTES && (operation = outbound.poll()) != null) {
            if (operation.isDone()) {
                // Timed out before it could be written: the server need not see it.
                pending.decrementAndGet();
                continue;
            }
            batch.add(operation);
            bytes += operation.encodedLength();
        }
        if (batch.isEmpty()) {
            return;
        }
        Buffer buffer = encode(batch, bytes);
        for (Operation<?> queued : batch) {
            nextOpaque += queued.requestCount();
            inFlight.add(queued);
        }
        batch.clear();
        write(buffer);
        lastActiveNanos = System.nanoTime();
    }

    /**
     * Encodes operations, numbered from {@code nextOpaque}, into a buffer of the transport's
     * memory manager (pooled on the I/O threads), straight into its array: a buffer's
     * {@code put} per field checks bounds and position every time.
     */
    private Buffer encode(List<Operation<?>> operations, int length) {
        Buffer buffer = transport.memoryManager().allocate(length);
        byte[] target = buffer.hasArray() ? buffer.array() : new byte[length];
        int offset = buffer.hasArray() ? buffer.arrayOffset() + buffer.position() : 0;
        int opaque = nextOpaque;
        for (Operation<?> operation : operations) {
            offset = operation.writeTo(target, offset, opaque);
            opaque += operation.requestCount();
        }
        if (buffer.hasArray()) {
            buffer.position(buffer.position() + length);
        } else {
            buffer.put(target);
        }
        return buffer.flip();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void write(Buffer buffer) {
        if (transport.security().tls() == null) {
            ((Connection) connection).write(buffer, writeFailure);
            return;
        }
        for (Buffer records : TlsRecords.split(buffer, text)) {
            ((Connection) connection).write(records, writeFailure);
        }
    }

    private void failQueued(MemcachedException error) {
        if (refusedByServer) {
            // Written, but to a server that read none of it: first, in the order written.
            handBack(inFlight, error);
        }
        handBack(outbound, error);
        failAll(inFlight, error);
    }

    /** Operations never executed: the pool may still deliver them. Written ones may have run. */
    private void handBack(Queue<Operation<?>> queue, MemcachedException error) {
        Operation<?> operation;
        while ((operation = queue.poll()) != null) {
            pending.decrementAndGet();
            pool.unsent(operation, error);
        }
    }

    private void failAll(Queue<Operation<?>> queue, MemcachedException error) {
        Operation<?> operation;
        while ((operation = queue.poll()) != null) {
            pending.decrementAndGet();
            operation.fail(error);
        }
    }

    private static int timeOutExpired(Queue<Operation<?>> queue, long nowNanos) {
        int timedOut = 0;
        for (Operation<?> operation : queue) {
            if (!operation.isDone() && operation.expiredAt(nowNanos) && operation.timeOut()) {
                timedOut++;
            }
        }
        return timedOut;
    }

    @Override
    public String toString() {
        return "connection to " + server + " (" + state + ", " + pending.get() + " pending)";
    }
}
