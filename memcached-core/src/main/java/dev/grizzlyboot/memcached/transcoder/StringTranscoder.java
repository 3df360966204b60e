package dev.grizzlyboot.memcached.transcoder;

import java.nio.charset.StandardCharsets;

/** UTF-8 strings with flags 0, whatever flags an item read back carries. */
final class StringTranscoder implements Transcoder<String> {

    static final StringTranscoder INSTANCE = new StringTranscoder();

    @Override
    public CachedData encode(String value) {
        return new CachedData(0, value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String decode(CachedData data) {
        return new String(data.bytes(), StandardCharsets.UTF_8);
    }
}
