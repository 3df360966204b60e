package dev.grizzlyboot.memcached;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-key results of a bulk operation, in the order the keys were given. A server that is down
 * or slow fails only its own keys (as {@link Outcome#ERROR}), never the whole call. Immutable.
 *
 * @param <T> the value's type
 */
public final class BulkResult<T> {

    private final Map<String, KeyResult<T>> results;

    BulkResult(Map<String, KeyResult<T>> results) {
        this.results = Collections.unmodifiableMap(results);
    }

    /**
     * The result for one key, or {@code null} if the key was not part of the call.
     *
     * @param key a key of the call
     * @return its outcome, value, token and error
     */
    public KeyResult<T> get(String key) {
        return results.get(key);
    }

    /**
     * The outcome for one key, or {@code null} if the key was not part of the call.
     *
     * @param key a key of the call
     * @return what happened to it
     */
    public Outcome outcome(String key) {
        KeyResult<T> result = results.get(key);
        return result == null ? null : result.outcome();
    }

    /**
     * Every key's result, in call order.
     *
     * @return an unmodifiable map from each key to its result
     */
    public Map<String, KeyResult<T>> asMap() {
        return results;
    }

    /**
     * The values of the keys that were {@link Outcome#FOUND}, in call order.
     *
     * @return a new map from each key found to its value
     */
    public Map<String, T> values() {
        // Sized for every key up front: growing a map of 200 found keys rehashed it five times.
        Map<String, T> values = new LinkedHashMap<>(results.size() * 4 / 3 + 1);
        results.forEach((key, result) -> {
            if (result.outcome() == Outcome.FOUND) {
                values.put(key, result.value());
            }
        });
        return values;
    }

    /**
     * The keys that failed with an error, and why.
     *
     * @return a new map from each failed key to its error; empty if none failed
     */
    public Map<String, MemcachedException> errors() {
        Map<String, MemcachedException> errors = new LinkedHashMap<>();
        results.forEach((key, result) -> {
            if (result.outcome() == Outcome.ERROR) {
                errors.put(key, result.error());
            }
        });
        return errors;
    }

    /**
     * How many keys the call had.
     *
     * @return the number of distinct keys
     */
    public int size() {
        return results.size();
    }

    @Override
    public String toString() {
        return results.toString();
    }
}
