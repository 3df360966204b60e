package dev.grizzlyboot.memcached.transcoder;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

import dev.grizzlyboot.memcached.TranscoderException;

/**
 * UTF-8 encoding and decoding that notice text without a UTF-8 form, and bytes that are not UTF-8,
 * instead of writing a stand-in, for string values. Stateless.
 */
final class Utf8 {

    private Utf8() {
    }

    /**
     * The UTF-8 bytes of {@code text}, or {@code null} when it holds an unpaired surrogate, for
     * which {@link String#getBytes} would write {@code '?'}: the stored text would not be the text
     * given. The first pass only notes whether any surrogate is there; written without an early
     * exit, the JIT vectorizes it (a byte-wise search of the encoded bytes doubled the cost of
     * encoding a 512-byte string, this pass adds about a tenth: docs/benchmarks.md).
     */
    static byte[] encode(String text) {
        int surrogates = 0;
        for (int i = 0; i < text.length(); i++) {
            surrogates |= (text.charAt(i) & 0xF800) == 0xD800 ? 1 : 0;
        }
        if (surrogates != 0 && !StandardCharsets.UTF_8.newEncoder().canEncode(text)) {
            return null;
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The text of UTF-8 {@code bytes}. {@link String#String(byte[], java.nio.charset.Charset)}
     * reads bytes that are not UTF-8 (another client's binary data stored with flags 0, such as
     * Python's {@code bytes}) as U+FFFD, a string that is not the stored value and that, written
     * back, would replace it; such bytes are a {@link TranscoderException}. Only text holding a
     * U+FFFD, rare in real text, is decoded a second time, strictly, to tell a stored U+FFFD from a
     * stand-in.
     *
     * @throws TranscoderException if the bytes are not UTF-8
     */
    static String decode(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') < 0) {
            return text;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            throw new TranscoderException("the stored bytes are not UTF-8 text (" + e.getMessage()
                    + "); if another client stored binary data, read it with Transcoder.bytes()", e);
        }
        return text;
    }
}
