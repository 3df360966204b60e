package dev.grizzlyboot.memcached.transcoder;

/** Raw bytes, unchanged, with flags 0. */
final class BytesTranscoder implements Transcoder<byte[]> {

    static final BytesTranscoder INSTANCE = new BytesTranscoder();

    @Override
    public CachedData encode(byte[] value) {
        return new CachedData(0, value);
    }

    @Override
    public byte[] decode(CachedData data) {
        return data.bytes();
    }
}
