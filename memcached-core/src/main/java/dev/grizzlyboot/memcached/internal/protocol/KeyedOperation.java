package dev.grizzlyboot.memcached.internal.protocol;

import java.util.List;

import dev.grizzlyboot.memcached.KeyResult;
import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.Outcome;
import dev.grizzlyboot.memcached.TranscoderException;

/**
 * Many keys for one server in one write, whatever the wire form: a result per key, made by a
 * {@link KeyHandler} from the key's answer, and the operation's silent outcome for every key the
 * server did not answer. Subclasses say which key an answer belongs to and when the batch is over.
 * Threading as for {@link Operation}; the results are only touched by the I/O thread until completion.
 *
 * @param <T> the value type of the per-key results
 */
public abstract class KeyedOperation<T> extends Operation<KeyResult<T>[]> {

    /** Turns the answer to one key into that key's result. Must be stateless. */
    @FunctionalInterface
    public interface KeyHandler<T> {

        KeyResult<T> handle(Response response, KeyedOperation<T> operation);
    }

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
    /** The position of the key whose answer the handler is reading. */
    private int answering;

    @SuppressWarnings("unchecked")
    protected KeyedOperation(String name, List<String> keys, Request[] requests, long timeoutNanos, KeyHandler<T> handler,
            Outcome silentOutcome) {
        super(requests, timeoutNanos);
        this.name = name;
        this.keys = keys;
        this.handler = handler;
        this.silentOutcome = new KeyResult<>(silentOutcome, null, 0, null);
        this.results = new KeyResult[keys.size()];
    }

    /** The keys, in the order of the results. */
    public final List<String> keys() {
        return keys;
    }

    /** The key whose answer the handler is reading. */
    public final String answeringKey() {
        return keys.get(answering);
    }

    /**
     * Records the value of the key being answered without a {@link KeyResult} of its own (one
     * object less per key).
     *
     * @return {@link #FOUND}, for the handler to return as the key's result
     */
    @SuppressWarnings("unchecked")
    public final KeyResult<T> found(T value) {
        if (values == null) {
            values = new Object[results.length];
        }
        values[answering] = value;
        return (KeyResult<T>) FOUND;
    }

    /**
     * The values of the keys whose result is {@link #FOUND}, by position, or {@code null} if there
     * is none; complete once the future is.
     */
    public final Object[] values() {
        return values;
    }

    /** Makes the result of the key at {@code index} from its answer; a handler's failure is that key's error only. */
    protected final void answer(int index, Response response) {
        answering = index;
        try {
            results[index] = handler.handle(response, this);
        } catch (MemcachedException e) {
            results[index] = new KeyResult<>(Outcome.ERROR, null, 0, e);
        } catch (RuntimeException e) {
            results[index] = new KeyResult<>(Outcome.ERROR, null, 0,
                    new TranscoderException(name + " '" + keys.get(index) + "': could not read the answer", e));
        }
    }

    /** Completes the future: every key not answered takes the silent outcome. */
    protected final void completeBatch() {
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                results[i] = silentOutcome;
            }
        }
        complete(results);
    }

    @Override
    protected final String describe() {
        return name + " of " + keys.size() + " keys";
    }
}
