package dev.grizzlyboot.memcached.transcoder;

import java.io.ByteArrayOutputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import dev.grizzlyboot.memcached.TranscoderException;

/**
 * Inflates a stored gzip value: one or more whole gzip members and nothing after them. memcached
 * joins an append's bytes to a compressed item and keeps its flags, so plain bytes after the gzip
 * data are an append the value cannot hold; {@link java.util.zip.GZIPInputStream} skips them
 * (the value read back without the appended part), Python's gzip refuses them, and so does this.
 * Stateless.
 */
final class Gunzip {

    private static final int FHCRC = 1 << 1;
    private static final int FEXTRA = 1 << 2;
    private static final int FNAME = 1 << 3;
    private static final int FCOMMENT = 1 << 4;
    private static final int TRAILER = 8;

    private Gunzip() {
    }

    /**
     * The inflated bytes of {@code bytes}, at most {@code limit} of them.
     *
     * @throws TranscoderException if the bytes are not whole gzip members, or inflate to more than {@code limit}
     */
    static byte[] inflate(byte[] bytes, int limit) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(limit, Math.max(64, bytes.length * 4)));
        byte[] chunk = new byte[8192];
        Inflater inflater = new Inflater(true);
        try {
            int at = 0;
            do {
                at = afterHeader(bytes, at);
                inflater.reset();
                inflater.setInput(bytes, at, bytes.length - at);
                CRC32 crc = new CRC32();
                long memberLength = 0;
                while (!inflater.finished()) {
                    int inflated = inflater.inflate(chunk);
                    if (inflated == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        throw notGzip("it ends inside the compressed data");
                    }
                    if (out.size() + (long) inflated > limit) {
                        throw new TranscoderException("a stored value of " + bytes.length + " compressed bytes inflates to more than "
                                + limit + " bytes, the transcoder's limit (DefaultTranscoder.Builder.maxUncompressedSize)");
                    }
                    out.write(chunk, 0, inflated);
                    crc.update(chunk, 0, inflated);
                    memberLength += inflated;
                }
                at = bytes.length - inflater.getRemaining();
                if (bytes.length - at < TRAILER || intLe(bytes, at) != (int) crc.getValue()
                        || intLe(bytes, at + 4) != (int) memberLength) {
                    throw notGzip("its trailer does not match the data (CRC32 and length)");
                }
                at += TRAILER;
            } while (at < bytes.length);
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new TranscoderException("a stored value flagged as compressed is not valid gzip", e);
        } finally {
            inflater.end();
        }
    }

    /** Where the compressed data of the member whose header starts at {@code at} begins. */
    private static int afterHeader(byte[] bytes, int at) {
        if (bytes.length - at < 10 || bytes[at] != (byte) 0x1f || bytes[at + 1] != (byte) 0x8b || bytes[at + 2] != 8) {
            throw notGzip(at > 0 ? bytes.length - at + " bytes after the gzip data are not another gzip member "
                    + "(an append to a compressed item?)" : "it has no gzip header");
        }
        int flags = bytes[at + 3];
        int next = at + 10;
        if ((flags & FEXTRA) != 0) {
            next = within(bytes, next + 2) + ((bytes[next] & 0xFF) | (bytes[next + 1] & 0xFF) << 8);
        }
        if ((flags & FNAME) != 0) {
            next = afterZero(bytes, next);
        }
        if ((flags & FCOMMENT) != 0) {
            next = afterZero(bytes, next);
        }
        if ((flags & FHCRC) != 0) {
            CRC32 header = new CRC32();
            header.update(bytes, at, next - at);
            within(bytes, next + 2);
            if (((bytes[next] & 0xFF) | (bytes[next + 1] & 0xFF) << 8) != (int) (header.getValue() & 0xFFFF)) {
                throw notGzip("its header CRC does not match the header");
            }
            next += 2;
        }
        return within(bytes, next);
    }

    private static int afterZero(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                return i + 1;
            }
        }
        throw notGzip("it ends inside its header");
    }

    private static int within(byte[] bytes, int offset) {
        if (offset > bytes.length) {
            throw notGzip("it ends inside its header");
        }
        return offset;
    }

    private static int intLe(byte[] bytes, int offset) {
        return (bytes[offset] & 0xFF) | (bytes[offset + 1] & 0xFF) << 8 | (bytes[offset + 2] & 0xFF) << 16
                | (bytes[offset + 3] & 0xFF) << 24;
    }

    private static TranscoderException notGzip(String why) {
        return new TranscoderException("a stored value flagged as compressed is not valid gzip: " + why);
    }
}
