package dev.grizzlyboot.memcached;

import dev.grizzlyboot.memcached.cluster.ServerAddress;

/**
 * The answer of one server to a whole-cluster call ({@code version}, {@code stats}, {@code noop},
 * {@code flushAll}): its value, or why that server did not answer. Immutable.
 *
 * @param server the server
 * @param value  what it answered; {@code null} if it failed (and for calls that return nothing)
 * @param error  why it failed; {@code null} if it answered
 * @param <T>    the value's type
 */
public record ServerResult<T>(ServerAddress server, T value, MemcachedException error) {

    /**
     * Whether the server answered.
     *
     * @return {@code true} if there is no {@code error}
     */
    public boolean succeeded() {
        return error == null;
    }
}
