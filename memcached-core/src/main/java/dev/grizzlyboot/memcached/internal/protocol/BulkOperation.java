package dev.grizzlyboot.memcached.internal.protocol;

import java.util.List;

import dev.grizzlyboot.memcached.KeyResult;
import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.Outcome;
import dev.grizzlyboot.memcached.TranscoderException;

/**
 * Many keys for one server in one write: a quiet request per key (the server answers only hits,
 * or only failures) and a NOOP whose answer proves every earlier request was processed. Keys
 * that got no answer take the operation's silent outcome. Threading as for {@link Operation};
 * the results array is only touched by the I/O thread until completion.
 *
 * @param <T> the value type of the per-key results
 */
public final class BulkOperation<T> extends Operation<KeyResult<T>[]> {

    /** Turns the answer to one key's quiet request into that key's result. Must be stateless. */
    @FunctionalInterface
    public interface KeyHandler<T> {

        KeyResult<T> handle(Response response, BulkOperation<T> operation);
    }

    /** The request that ends every batch: its answer proves the server processed all before it. */
    public static final Request TERMINATOR = Request.of(Opcode.NOOP);

    /**
     * Stands in a result slot for a plain hit whose value is in {@link #values()} (see {@link #found}):
     * the reader builds the key's {@link KeyResult} only if it is asked for. Compared by identity.
     */
    public static final KeyResult<?> FOUND = new KeyResult<>(Outcome.FOUND, null, 0, null);

    private final String name;
    private final List<String> keys;
    private final KeyHandler<T> handler;
    private final KeyResult<T> silentOutcome;
    private final KeyResult<T>[] results;
    /** Made on the first hit: writes (setMulti, deleteMulti) have none. */
    private Object[] values;

    /**
     * @param keys     the keys, one per quiet request
     * @param requests a quiet request per key, in the order of {@code keys}, then {@link #TERMINATOR}
     */
    @SuppressWarnings("unchecked")
    public BulkOperation(String name, List<String> keys, Request[] requests, long timeoutNanos,
            KeyHandler<T> handler, Outcome silentOutcome) {
        super(requests, timeoutNanos);
        if (requests.length != keys.size() + 1 || requests[keys.size()] != TERMINATOR) {
            throw new IllegalArgumentException("a bulk operation needs one request per key and the terminator last");
        }
        this.name = name;
        this.keys = keys;
        this.handler = handler;
        this.silentOutcome = new KeyResult<>(silentOutcome, null, 0, null);
        this.results = new KeyResult[keys.size()];
    }

    /** The keys, in the order of the results. */
    public List<String> keys() {
        return keys;
    }

    /**
     * Records a hit's value without a {@link KeyResult} of its own (one object less per key).
     *
     * @return {@link #FOUND}, for the handler to return as the key's result
     */
    @SuppressWarnings("unchecked")
    public KeyResult<T> found(Response response, T value) {
        if (values == null) {
            values = new Object[results.length];
        }
        values[indexOf(response)] = value;
        return (KeyResult<T>) FOUND;
    }

    /**
     * The values of the keys whose result is {@link #FOUND}, by position, or {@code null} if there
     * is none; complete once the future is.
     */
    public Object[] values() {
        return values;
    }

    /** The key a response answers. */
    public String keyOf(Response response) {
        return keys.get(indexOf(response));
    }

    @Override
    public void onResponse(Response response) {
        int index = indexOf(response);
        if (index == keys.size()) {
            for (int i = 0; i < results.length; i++) {
                if (results[i] == null) {
                    results[i] = silentOutcome;
                }
            }
            complete(results);
            return;
        }
        try {
            results[index] = handler.handle(response, this);
        } catch (MemcachedException e) {
            results[index] = new KeyResult<>(Outcome.ERROR, null, 0, e);
        } catch (RuntimeException e) {
            results[index] = new KeyResult<>(Outcome.ERROR, null, 0,
                    new TranscoderException(name + " '" + keys.get(index) + "': could not read the answer", e));
        }
    }

    @Override
    protected String describe() {
        return name + " of " + keys.size() + " keys";
    }
}
