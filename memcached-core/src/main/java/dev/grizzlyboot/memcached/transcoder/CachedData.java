package dev.grizzlyboot.memcached.transcoder;

/**
 * A value as memcached stores it: the 32-bit flags field and the bytes. Immutable by contract:
 * nobody modifies {@code bytes} after construction.
 *
 * @param flags the item's flags, which tell a transcoder how to decode the bytes
 * @param bytes the item's data
 */
public record CachedData(int flags, byte[] bytes) {
}
