package dev.grizzlyboot.memcached.internal.connection;

import java.util.ArrayList;
import java.util.List;

import org.glassfish.grizzly.Buffer;

/**
 * Cuts a batch of encoded requests into writes that each become whole TLS records holding whole
 * requests: at most 16 KiB (one record's payload, and memcached's read buffer) of requests, or a
 * single larger request. memcached 1.6.18 (Debian 12) reads one record at a time and waits for the
 * socket to become readable again, missing bytes that a larger record left inside OpenSSL: a
 * batch cut anywhere else could sit unanswered until the client happened to send more. A binary
 * request ends where its header's body length says; a text request ({@code get k1 k2 …}) ends at
 * its newline, the only one it holds (keys have no whitespace or control bytes).
 * Stateless. Internal.
 */
final class TlsRecords {

    /** The largest plaintext of one TLS record. */
    static final int MAX_PAYLOAD = 16 * 1024;
    private static final int HEADER_LENGTH = 24;
    private static final int BODY_LENGTH_OFFSET = 8;

    private TlsRecords() {
    }

    /**
     * Views of {@code batch} (from its position to its limit), in order, cut at request boundaries.
     *
     * @param text whether the batch holds text-protocol requests rather than binary ones
     */
    static List<Buffer> split(Buffer batch, boolean text) {
        int end = batch.limit();
        if (end - batch.position() <= MAX_PAYLOAD) {
            return List.of(batch);
        }
        List<Buffer> writes = new ArrayList<>();
        int start = batch.position();
        int request = start;
        while (request < end) {
            int length = text ? textRequestLength(batch, request, end) : HEADER_LENGTH + batch.getInt(request + BODY_LENGTH_OFFSET);
            if (request > start && request + length - start > MAX_PAYLOAD) {
                writes.add(batch.slice(start, request));
                start = request;
            }
            request += length;
        }
        writes.add(batch.slice(start, end));
        return writes;
    }

    private static int textRequestLength(Buffer batch, int request, int end) {
        int at = request;
        while (at < end - 1 && batch.get(at) != '\n') {
            at++;
        }
        return at + 1 - request;
    }
}
