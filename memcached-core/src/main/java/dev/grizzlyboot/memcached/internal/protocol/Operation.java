package dev.grizzlyboot.memcached.internal.protocol;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.MemcachedStatusException;
import dev.grizzlyboot.memcached.MemcachedTimeoutException;

/**
 * One or more requests sent together on one connection, and the responses that complete them.
 * Responses are matched by opaque and opcode: a connection numbers an operation's requests
 * consecutively when it writes them, and an operation accepts only responses carrying its own
 * numbers and echoing the opcode of the request so numbered. A wire form without opaques (the
 * text protocol's bulk read) overrides the encoding and the matching.
 *
 * <p>Threading: created by a caller, written by whichever thread flushes the connection, fed
 * responses by the connection's I/O thread, and possibly failed (timeout, connection loss) by
 * another; its future completes exactly once.
 *
 * @param <T> the result type
 */
public abstract class Operation<T> {

    private final CompletableFuture<T> future = new CompletableFuture<>();
    private final Request[] requests;
    private final int encodedLength;
    private final long timeoutNanos;
    private final long deadlineNanos;
    private final boolean changesItems;
    private int firstOpaque;
    private volatile String server = "(unassigned)";

    protected Operation(Request[] requests, long timeoutNanos) {
        this.requests = requests;
        int length = 0;
        for (Request request : requests) {
            length += request.length();
        }
        this.encodedLength = length;
        this.changesItems = requests.length > 0 && requests[0].opcode().changesItems();
        this.timeoutNanos = timeoutNanos;
        this.deadlineNanos = System.nanoTime() + timeoutNanos;
    }

    /** The future the caller holds. */
    public final CompletableFuture<T> future() {
        return future;
    }

    /** Whether the future has completed (answered, failed or timed out). */
    public final boolean isDone() {
        return future.isDone();
    }

    /** Fails the operation unless it has already completed. */
    public final void fail(MemcachedException error) {
        future.completeExceptionally(error);
    }

    /** Records which server the operation goes to, for error messages. */
    public final void assignServer(String server) {
        this.server = server;
    }

    /** The server this operation was sent to. */
    public final String server() {
        return server;
    }

    /**
     * The key whose owner this operation goes to, or {@code null} if it is bound to its server
     * (several keys, or a request for the server itself): only a keyed operation that was never
     * written can be routed elsewhere when its server fails.
     */
    public String routingKey() {
        return null;
    }

    /**
     * Whether the operation stores, deletes or counts (a set, delete or counter family request,
     * or a bulk batch of them): the pool keeps these on one connection per server while it can.
     */
    public final boolean changesItems() {
        return changesItems;
    }

    /** What is left of the operation's time at {@code nowNanos}: none once its deadline has passed. */
    public final long remainingNanos(long nowNanos) {
        return Math.max(0, deadlineNanos - nowNanos);
    }

    /** Whether the deadline has passed at {@code nowNanos}. */
    public final boolean expiredAt(long nowNanos) {
        return nowNanos - deadlineNanos >= 0;
    }

    /**
     * Fails the operation with a timeout, unless it has already completed.
     *
     * @return whether this call timed it out
     */
    public final boolean timeOut() {
        return future.completeExceptionally(new MemcachedTimeoutException(describe() + " on " + server + " timed out after "
                + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
    }

    /** The binary request at {@code index}. */
    protected final Request request(int index) {
        return requests[index];
    }

    /** How many binary requests the operation sends, and so how many opaques it takes. */
    public int requestCount() {
        return requests.length;
    }

    /**
     * Whether the operation is a batch of many keys' requests: the pool spreads such reads over
     * its connections instead of filling the oldest one first.
     */
    public boolean isBatch() {
        return requests.length > 1;
    }

    /** Bytes the operation's requests take on the wire. */
    public int encodedLength() {
        return encodedLength;
    }

    /**
     * Writes every request into {@code target} at {@code offset}, numbering them from {@code firstOpaque}.
     *
     * @return the offset after the last request
     */
    public int writeTo(byte[] target, int offset, int firstOpaque) {
        this.firstOpaque = firstOpaque;
        int next = offset;
        for (int i = 0; i < requests.length; i++) {
            next = requests[i].writeTo(target, next, firstOpaque + i);
        }
        return next;
    }

    /**
     * Why a response cannot be the answer to one of this operation's requests, or {@code null}
     * if it is: its opaque must number one of them, its opcode echo that request's, and it may
     * carry a key only where the protocol returns one (STAT).
     */
    public String mismatch(Response response) {
        int index = indexOf(response);
        if (index < 0 || index >= requests.length) {
            return "opaque " + response.opaque() + " does not answer the oldest request in flight (" + describe() + ")";
        }
        Opcode expected = requests[index].opcode();
        if (response.opcode() != expected.code()) {
            return String.format("opcode 0x%02x answers a %s request (opcode 0x%02x, %s)", response.opcode() & 0xFF, expected,
                    expected.code() & 0xFF, describe());
        }
        if (response.key().length > 0 && expected != Opcode.STAT) {
            return "a " + expected + " answer carries a key, which the protocol never returns for it (" + describe() + ")";
        }
        return null;
    }

    /** The index, within this operation, of the request a response answers. */
    protected final int indexOf(Response response) {
        return response.opaque() - firstOpaque;
    }

    /**
     * Whether a response (one that {@link #mismatch} accepts) is the last this operation expects:
     * by default the answer to its last request. The connection asks before handing the response
     * over, so that the operation has left the connection's pending count when its future completes.
     */
    public boolean isLast(Response response) {
        return indexOf(response) == requests.length - 1;
    }

    /**
     * Takes one response. Called on the I/O thread, also after the future has completed (a late
     * answer still has to be consumed).
     */
    public abstract void onResponse(Response response);

    /** A short description for messages, such as {@code get 'user:42'}. */
    protected abstract String describe();

    /** The exception for an error status in a response to this operation. */
    public final MemcachedStatusException statusError(Response response) {
        String text = response.value().length > 0 ? ": " + response.valueText() : "";
        return MemcachedStatusException.of(response.serverStatus(),
                describe() + " on " + server + " failed with " + response.serverStatus() + text);
    }

    protected final void complete(T result) {
        future.complete(result);
    }
}
