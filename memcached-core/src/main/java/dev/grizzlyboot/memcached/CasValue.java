package dev.grizzlyboot.memcached;

/**
 * A value together with the CAS token the server holds for it, as {@code gets} returns it and
 * {@code cas} takes it back. Immutable.
 *
 * @param value the value
 * @param cas   the server's compare-and-swap token for this version of the value
 * @param <T>   the value's type
 */
public record CasValue<T>(T value, long cas) {
}
