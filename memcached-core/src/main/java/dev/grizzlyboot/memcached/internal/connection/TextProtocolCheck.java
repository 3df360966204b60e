package dev.grizzlyboot.memcached.internal.connection;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.grizzlyboot.memcached.Outcome;
import dev.grizzlyboot.memcached.internal.protocol.TextBulkRead;

/**
 * The exchange a new text-protocol connection makes before it carries bulk reads: a {@code get}
 * of a key nobody is expected to store. A server that speaks the text protocol answers it
 * ({@code END}, or the value if someone stored the key); memcached started with
 * {@code -B binary} takes the first 24 bytes it reads for a binary header and closes the
 * connection on their first byte, which is not the binary magic. The line is longer than that
 * header on purpose: a shorter one would leave such a server waiting for the rest of it, and the
 * connection would end only at the connect timeout, which looks like a slow server.
 */
final class TextProtocolCheck {

    static final String KEY = "grizzly-boot:text-protocol-check";

    private TextProtocolCheck() {
    }

    static TextBulkRead<Object> operation() {
        // No deadline of its own: the connection is still being opened, and its connect timeout bounds the exchange.
        return new TextBulkRead<>("text protocol check", false, List.of(KEY),
                new byte[][] {KEY.getBytes(StandardCharsets.US_ASCII)}, Long.MAX_VALUE, (response, operation) -> null,
                Outcome.NOT_FOUND);
    }
}
