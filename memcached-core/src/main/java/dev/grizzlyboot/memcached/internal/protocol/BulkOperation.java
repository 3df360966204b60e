package dev.grizzlyboot.memcached.internal.protocol;

import java.util.List;

import dev.grizzlyboot.memcached.Outcome;

/**
 * Many keys for one server in one binary write: a quiet request per key (the server answers only
 * hits, or only failures) and a NOOP whose answer proves every earlier request was processed.
 * Keys that got no answer take the operation's silent outcome. Threading as for {@link Operation}.
 *
 * @param <T> the value type of the per-key results
 */
public final class BulkOperation<T> extends KeyedOperation<T> {

    /** The request that ends every batch: its answer proves the server processed all before it. */
    public static final Request TERMINATOR = Request.of(Opcode.NOOP);

    /**
     * @param keys     the keys, one per quiet request
     * @param requests a quiet request per key, in the order of {@code keys}, then {@link #TERMINATOR}
     */
    public BulkOperation(String name, List<String> keys, Request[] requests, long timeoutNanos,
            KeyHandler<T> handler, Outcome silentOutcome) {
        super(name, keys, requests, timeoutNanos, handler, silentOutcome);
        if (requests.length != keys.size() + 1 || requests[keys.size()] != TERMINATOR) {
            throw new IllegalArgumentException("a bulk operation needs one request per key and the terminator last");
        }
    }

    @Override
    protected KeyedOperation<T> part(String name, List<String> keys, int[] positions, long timeoutNanos,
            KeyHandler<T> handler, Outcome silentOutcome) {
        Request[] requests = new Request[positions.length + 1];
        for (int i = 0; i < positions.length; i++) {
            requests[i] = request(positions[i]);
        }
        requests[positions.length] = TERMINATOR;
        return new BulkOperation<>(name, keys, requests, timeoutNanos, handler, silentOutcome);
    }

    @Override
    public void onResponse(Response response) {
        int index = indexOf(response);
        if (index == keys().size()) {
            completeBatch();
        } else {
            answer(index, response);
        }
    }
}
