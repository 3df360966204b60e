package dev.grizzlyboot.memcached.transcoder;

import dev.grizzlyboot.memcached.TranscoderException;

/**
 * UTF-8 strings with flags 0, whatever flags an item read back carries; text without a UTF-8 form,
 * and stored bytes that are not UTF-8, are refused.
 */
final class StringTranscoder implements Transcoder<String> {

    static final StringTranscoder INSTANCE = new StringTranscoder();

    @Override
    public CachedData encode(String value) {
        byte[] bytes = Utf8.encode(value);
        if (bytes == null) {
            throw new TranscoderException("the string holds an unpaired surrogate, which has no UTF-8 form;"
                    + " the default transcoder stores such strings serialized");
        }
        return new CachedData(0, bytes);
    }

    @Override
    public String decode(CachedData data) {
        return Utf8.decode(data.bytes());
    }
}
