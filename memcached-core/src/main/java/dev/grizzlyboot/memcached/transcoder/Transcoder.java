package dev.grizzlyboot.memcached.transcoder;

/**
 * Turns values into memcached items (flags and bytes) and back. Implementations must be
 * thread-safe: one transcoder serves all operations, on caller and I/O threads alike.
 *
 * @param <T> the type of values it handles
 */
public interface Transcoder<T> {

    /**
     * Encodes a value for storage.
     *
     * @param value the value to store
     * @return the flags and bytes to send
     * @throws dev.grizzlyboot.memcached.TranscoderException if the value cannot be encoded
     */
    CachedData encode(T value);

    /**
     * Decodes an item read from the server.
     *
     * @param data the flags and bytes the server returned
     * @return the value
     * @throws dev.grizzlyboot.memcached.TranscoderException if the item cannot be decoded
     */
    T decode(CachedData data);

    /**
     * UTF-8 strings, flags 0, no compression: the form every memcached client reads. Reading
     * stored bytes that are not UTF-8 is a {@link dev.grizzlyboot.memcached.TranscoderException}
     * (read those with {@link #bytes()}), never a string with stand-ins in their place.
     *
     * @return the shared string transcoder
     */
    static Transcoder<String> string() {
        return StringTranscoder.INSTANCE;
    }

    /**
     * Raw bytes, stored as they are with flags 0.
     *
     * @return the shared byte-array transcoder
     */
    static Transcoder<byte[]> bytes() {
        return BytesTranscoder.INSTANCE;
    }
}
