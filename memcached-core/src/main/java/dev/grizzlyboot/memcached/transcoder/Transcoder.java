package dev.grizzlyboot.memcached.transcoder;

/**
 * Turns values into memcached items (flags and bytes) and back. Implementations must be
 * thread-safe: one transcoder serves all operations, on caller and I/O threads alike.
 *
 * @param <T> the type of values it handles
 */
public interface Transcoder<T> {

    /** Encodes a value for storage. */
    CachedData encode(T value);

    /** Decodes an item read from the server. */
    T decode(CachedData data);

    /** UTF-8 strings, flags 0, no compression: the form every memcached client reads. */
    static Transcoder<String> string() {
        return StringTranscoder.INSTANCE;
    }

    /** Raw bytes, stored as they are with flags 0. */
    static Transcoder<byte[]> bytes() {
        return BytesTranscoder.INSTANCE;
    }
}
