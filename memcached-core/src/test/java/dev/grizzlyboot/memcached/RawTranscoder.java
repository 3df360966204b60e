package dev.grizzlyboot.memcached;

import dev.grizzlyboot.memcached.transcoder.CachedData;
import dev.grizzlyboot.memcached.transcoder.Transcoder;

/** Hands items over as they are stored: the flags and bytes, for tests that check both exactly. Stateless. */
final class RawTranscoder implements Transcoder<CachedData> {

    static final RawTranscoder RAW = new RawTranscoder();

    private RawTranscoder() {
    }

    @Override
    public CachedData encode(CachedData value) {
        return value;
    }

    @Override
    public CachedData decode(CachedData data) {
        return data;
    }
}
