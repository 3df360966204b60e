package dev.grizzlyboot.memcached.internal.protocol;

import java.util.List;
import java.util.concurrent.CompletableFuture;

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

    /** The operation's name, for messages and for a batch resent in another wire form. */
    final String name() {
        return name;
    }

    final KeyHandler<T> handler() {
        return handler;
    }

    final Outcome silentOutcome() {
        return silentOutcome.outcome();
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

    /**
     * A batch of the same wire form for the keys at {@code positions} (ascending), with this
     * batch's handler and silent outcome and what is left of its time: the share of a batch that
     * was never written, for the server its keys go to now.
     */
    public final KeyedOperation<T> part(int[] positions, long nowNanos) {
        String[] partKeys = new String[positions.length];
        for (int i = 0; i < positions.length; i++) {
            partKeys[i] = keys.get(positions[i]);
        }
        return part(name, List.of(partKeys), positions, remainingNanos(nowNanos), handler, silentOutcome.outcome());
    }

    /** The subclass's constructor for {@link #part(int[], long)}: {@code positions} say which of this batch's keys. */
    protected abstract KeyedOperation<T> part(String name, List<String> keys, int[] positions, long timeoutNanos,
            KeyHandler<T> handler, Outcome silentOutcome);

    /**
     * Completes this batch, which was never written, once its parts sent elsewhere have: each
     * key's result (and value) is its part's, or its part's error.
     *
     * @param parts     the parts, each made by {@link #part(int[], long)}
     * @param positions the positions each part was made with
     */
    public final void completeFrom(List<KeyedOperation<T>> parts, List<int[]> positions) {
        CompletableFuture<?>[] futures = new CompletableFuture<?>[parts.size()];
        for (int i = 0; i < futures.length; i++) {
            futures[i] = parts.get(i).future();
        }
        CompletableFuture.allOf(futures).whenComplete((done, ignored) -> {
            for (int i = 0; i < futures.length; i++) {
                int[] partPositions = positions.get(i);
                KeyedOperation<T> part = parts.get(i);
                part.future().handle((partResults, error) -> copyResults(part, partResults, error, partPositions));
            }
            complete(results);
        });
    }

    private Void copyResults(KeyedOperation<T> part, KeyResult<T>[] partResults, Throwable error, int[] positions) {
        if (error != null) {
            MemcachedException failure = error instanceof MemcachedException memcached ? memcached
                    : new MemcachedException(describe() + " failed", error);
            for (int position : positions) {
                results[position] = new KeyResult<>(Outcome.ERROR, null, 0, failure);
            }
            return null;
        }
        Object[] partValues = part.values();
        for (int j = 0; j < positions.length; j++) {
            results[positions[j]] = partResults[j];
            if (partValues != null && partValues[j] != null) {
                if (values == null) {
                    values = new Object[results.length];
                }
                values[positions[j]] = partValues[j];
            }
        }
        return null;
    }

    @Override
    protected final String describe() {
        return name + " of " + keys.size() + " keys";
    }
}
