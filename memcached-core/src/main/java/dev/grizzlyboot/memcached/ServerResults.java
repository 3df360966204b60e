package dev.grizzlyboot.memcached;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.grizzlyboot.memcached.cluster.ServerAddress;

/**
 * Per-server results of a whole-cluster call, in server-list order. A server that is down or slow
 * fails only its own entry, never the whole call, so a monitoring page can show every other
 * server's answer. Immutable.
 *
 * @param <T> the value's type
 */
public final class ServerResults<T> {

    private final Map<ServerAddress, ServerResult<T>> results;

    ServerResults(Map<ServerAddress, ServerResult<T>> results) {
        this.results = Collections.unmodifiableMap(results);
    }

    /**
     * The result of one server, or {@code null} if it was not part of the call.
     *
     * @param server a server of the call
     * @return its value or error
     */
    public ServerResult<T> get(ServerAddress server) {
        return results.get(server);
    }

    /**
     * Every server's result, in list order.
     *
     * @return an unmodifiable map from each server to its result
     */
    public Map<ServerAddress, ServerResult<T>> asMap() {
        return results;
    }

    /**
     * The values of the servers that answered, in list order.
     *
     * @return a new map from each server that answered to its value
     */
    public Map<ServerAddress, T> values() {
        Map<ServerAddress, T> values = new LinkedHashMap<>();
        results.forEach((server, result) -> {
            if (result.succeeded()) {
                values.put(server, result.value());
            }
        });
        return values;
    }

    /**
     * The servers that failed, and why.
     *
     * @return a new map from each failed server to its error; empty if none failed
     */
    public Map<ServerAddress, MemcachedException> errors() {
        Map<ServerAddress, MemcachedException> errors = new LinkedHashMap<>();
        results.forEach((server, result) -> {
            if (!result.succeeded()) {
                errors.put(server, result.error());
            }
        });
        return errors;
    }

    /**
     * Whether every server answered.
     *
     * @return {@code true} if no server failed
     */
    public boolean allSucceeded() {
        return results.values().stream().allMatch(ServerResult::succeeded);
    }

    /**
     * How many servers the call went to.
     *
     * @return the number of servers
     */
    public int size() {
        return results.size();
    }

    /**
     * Every value, in list order, if all servers answered; otherwise throws the first server's
     * error (what the all-or-nothing variants of the whole-cluster calls report).
     */
    Map<ServerAddress, T> valuesOrThrow() {
        for (ServerResult<T> result : results.values()) {
            if (!result.succeeded()) {
                throw result.error();
            }
        }
        return values();
    }

    @Override
    public String toString() {
        return results.toString();
    }
}
