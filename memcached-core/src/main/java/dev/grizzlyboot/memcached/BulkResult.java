package dev.grizzlyboot.memcached;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.grizzlyboot.memcached.internal.protocol.KeyedOperation;

/**
 * Per-key results of a bulk operation, in the order the keys were given. A server that is down
 * or slow fails only its own keys (as {@link Outcome#ERROR}), never the whole call. Immutable.
 *
 * @param <T> the value's type
 */
public final class BulkResult<T> {

    private final KeyIndex keys;
    private final KeyResult<T>[] results;
    /** The value of each key whose result is {@link KeyedOperation#FOUND}, by position. */
    private final Object[] values;

    /**
     * @param results each key's result, by its position in {@code keys}, or {@link KeyedOperation#FOUND}
     *                for a hit whose value is in {@code values} (the arrays are not copied: never change them)
     * @param values  the hits' values by position; may be {@code null} if no result is {@link KeyedOperation#FOUND}
     */
    BulkResult(KeyIndex keys, KeyResult<T>[] results, Object[] values) {
        this.keys = keys;
        this.results = results;
        this.values = values;
    }

    /**
     * The result for one key, or {@code null} if the key was not part of the call.
     *
     * @param key a key of the call
     * @return its outcome, value, token and error
     */
    public KeyResult<T> get(String key) {
        int position = keys.indexOf(key);
        return position < 0 ? null : result(position);
    }

    /**
     * The outcome for one key, or {@code null} if the key was not part of the call.
     *
     * @param key a key of the call
     * @return what happened to it
     */
    public Outcome outcome(String key) {
        int position = keys.indexOf(key);
        return position < 0 ? null : results[position].outcome();
    }

    /**
     * Every key's result, in call order.
     *
     * @return an unmodifiable map from each key to its result
     */
    public Map<String, KeyResult<T>> asMap() {
        Object[] all = new Object[results.length];
        for (int position = 0; position < all.length; position++) {
            all[position] = result(position);
        }
        return new IndexedMap<>(keys, all);
    }

    /**
     * The values of the keys that were {@link Outcome#FOUND}, in call order.
     *
     * @return an unmodifiable map from each key found to its value (copy it to change it)
     */
    public Map<String, T> values() {
        // No LinkedHashMap entry per key: when every key was found (the usual case) the map shares
        // this result's key index; otherwise the found keys get an index of their own.
        int found = 0;
        for (KeyResult<T> result : results) {
            if (result.outcome() == Outcome.FOUND) {
                found++;
            }
        }
        Object[] hits = new Object[found];
        KeyIndex foundKeys = found == results.length ? keys : new KeyIndex(found);
        int next = 0;
        for (int position = 0; position < results.length; position++) {
            if (results[position].outcome() == Outcome.FOUND) {
                if (foundKeys != keys) {
                    foundKeys.add(keys.key(position));
                }
                hits[next++] = value(position);
            }
        }
        return new IndexedMap<>(foundKeys, hits);
    }

    /**
     * The keys that failed with an error, and why.
     *
     * @return a new map from each failed key to its error; empty if none failed
     */
    public Map<String, MemcachedException> errors() {
        Map<String, MemcachedException> errors = new LinkedHashMap<>();
        for (int position = 0; position < results.length; position++) {
            if (results[position].outcome() == Outcome.ERROR) {
                errors.put(keys.key(position), results[position].error());
            }
        }
        return errors;
    }

    /**
     * How many keys the call had.
     *
     * @return the number of distinct keys
     */
    public int size() {
        return results.length;
    }

    /** A key's result, built here for a hit recorded as {@link KeyedOperation#FOUND}. */
    private KeyResult<T> result(int position) {
        KeyResult<T> result = results[position];
        return result == KeyedOperation.FOUND ? new KeyResult<>(Outcome.FOUND, value(position), 0, null) : result;
    }

    @SuppressWarnings("unchecked")
    private T value(int position) {
        KeyResult<T> result = results[position];
        return result == KeyedOperation.FOUND ? (T) values[position] : result.value();
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
