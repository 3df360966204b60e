package dev.grizzlyboot.memcached;

import dev.grizzlyboot.memcached.internal.protocol.Opcode;
import dev.grizzlyboot.memcached.internal.protocol.Request;
import dev.grizzlyboot.memcached.transcoder.CachedData;
import dev.grizzlyboot.memcached.transcoder.Transcoder;

/**
 * Encodes values for storage and enforces memcached's item size limit before anything is sent
 * (memcached would refuse a larger item anyway, after it crossed the network). An item is its
 * value plus the key and a header, so the largest value depends on the key. Thread-safe.
 */
final class ValueEncoder {

    /**
     * What memcached 1.5 and 1.6 on 64-bit add to key and value to make an item: a 48-byte item
     * header, 8 bytes of CAS, the key's terminating byte and the value's trailing CRLF (measured:
     * with {@code -I 1m} a 10-byte key takes a value of at most 1,048,507 bytes).
     */
    static final int ITEM_HEADER = 48 + 8 + 1 + 2;
    /** memcached stores the flags only when they are not 0. */
    private static final int FLAGS_SUFFIX = 4;

    private final int maxItemSize;

    ValueEncoder(int maxItemSize) {
        this.maxItemSize = maxItemSize;
    }

    /** A storage request for {@code value}, encoded by {@code valueTranscoder}. */
    <T> Request storeRequest(Opcode opcode, byte[] key, T value, int expiry, long cas, Transcoder<? super T> valueTranscoder) {
        CachedData data = encode(valueTranscoder, value);
        int itemSize = ITEM_HEADER + key.length + (data.flags() != 0 ? FLAGS_SUFFIX : 0) + data.bytes().length;
        if (itemSize > maxItemSize) {
            throw new UnsentValueTooLargeException("value is " + data.bytes().length + " bytes; with its " + key.length
                    + "-byte key and memcached's item header the item takes " + itemSize
                    + " bytes, over the item size limit (maxItemSize, memcached's -I) of " + maxItemSize + " bytes");
        }
        return Request.store(opcode, key, data.flags(), expiry, data.bytes(), cas);
    }

    /**
     * The stored form of {@code value}.
     *
     * @throws TranscoderException for {@code null} or a value the transcoder cannot encode
     * @throws ValueTooLargeException if the value alone is over the item size limit
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
            throw new UnsentValueTooLargeException("value is " + data.bytes().length
                    + " bytes; the item size limit (maxItemSize, memcached's -I) is " + maxItemSize + " bytes");
        }
        return data;
    }
}
