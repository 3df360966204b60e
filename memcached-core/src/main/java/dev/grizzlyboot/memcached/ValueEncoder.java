package dev.grizzlyboot.memcached;

import dev.grizzlyboot.memcached.internal.protocol.Opcode;
import dev.grizzlyboot.memcached.internal.protocol.Request;
import dev.grizzlyboot.memcached.transcoder.CachedData;
import dev.grizzlyboot.memcached.transcoder.Transcoder;

/**
 * Encodes values for storage and enforces the client's maximum item size before anything is sent
 * (memcached would refuse a larger value anyway, after it crossed the network). Thread-safe.
 */
final class ValueEncoder {

    private final int maxItemSize;

    ValueEncoder(int maxItemSize) {
        this.maxItemSize = maxItemSize;
    }

    /** A storage request for {@code value}, encoded by {@code valueTranscoder}. */
    <T> Request storeRequest(Opcode opcode, byte[] key, T value, int expiry, long cas, Transcoder<? super T> valueTranscoder) {
        CachedData data = encode(valueTranscoder, value);
        return Request.store(opcode, key, data.flags(), expiry, data.bytes(), cas);
    }

    /**
     * The stored form of {@code value}.
     *
     * @throws TranscoderException for {@code null} or a value the transcoder cannot encode
     * @throws ValueTooLargeException above the maximum item size
     */
    <T> CachedData encode(Transcoder<? super T> valueTranscoder, T value) {
        if (value == null) {
            throw new TranscoderException("memcached cannot store null");
        }
        CachedData data;
        try {
            data = valueTranscoder.encode(value);
        } catch (MemcachedException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new TranscoderException("could not encode a " + value.getClass().getName(), e);
        }
        if (data.bytes().length > maxItemSize) {
            throw new ValueTooLargeException("value is " + data.bytes().length + " bytes; the limit (maxItemSize) is "
                    + maxItemSize + " bytes");
        }
        return data;
    }
}
