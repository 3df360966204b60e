package dev.grizzlyboot.memcached.transcoder;

import java.nio.charset.StandardCharsets;

/**
 * UTF-8 encoding that notices text without a UTF-8 form instead of writing a stand-in, for string
 * values. Stateless.
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
}
