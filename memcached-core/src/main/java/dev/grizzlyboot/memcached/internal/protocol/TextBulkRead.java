package dev.grizzlyboot.memcached.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import dev.grizzlyboot.memcached.Outcome;

/**
 * Many keys read from one server with one text-protocol command, {@code get k1 k2 …} (or
 * {@code gets} for CAS tokens): memcached serves it for about half the CPU per key that a binary
 * quiet get per key costs it. The server answers a {@code VALUE} per hit, in the order the keys
 * were asked, then {@code END}; an answer is matched by its key, which must be one asked for and
 * come after the last one matched, and {@code END} (or an error line) is the last answer. Keys
 * not answered take the silent outcome. Threading as for {@link Operation}; the match position is
 * only touched by the I/O thread.
 *
 * @param <T> the value type of the per-key results
 */
public final class TextBulkRead<T> extends KeyedOperation<T> {

    private static final Request[] NO_BINARY_REQUESTS = new Request[0];
    private static final byte[] GET = "get".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] GETS = "gets".getBytes(StandardCharsets.US_ASCII);

    private final byte[] command;
    private final byte[][] keyBytes;
    private final int encodedLength;
    /** The position after the last key answered: memcached answers hits in the order asked. */
    private int next;
    /** The position of the key the answer just accepted by {@link #mismatch} is for. */
    private int matched;

    /**
     * @param withCas  {@code gets} (the answers carry CAS tokens) rather than {@code get}
     * @param keys     the keys, in the order of the results
     * @param keyBytes each key's UTF-8 bytes, in the same order; already checked to be valid
     *                 text-protocol keys (no whitespace or control characters)
     */
    public TextBulkRead(String name, boolean withCas, List<String> keys, byte[][] keyBytes, long timeoutNanos,
            KeyHandler<T> handler, Outcome silentOutcome) {
        super(name, keys, NO_BINARY_REQUESTS, timeoutNanos, handler, silentOutcome);
        if (keyBytes.length != keys.size() || keys.isEmpty()) {
            throw new IllegalArgumentException("a text bulk read needs at least one key, and the bytes of each");
        }
        this.command = withCas ? GETS : GET;
        this.keyBytes = keyBytes;
        int length = command.length + 2;
        for (byte[] key : keyBytes) {
            length += 1 + key.length;
        }
        this.encodedLength = length;
    }

    @Override
    protected KeyedOperation<T> part(String name, List<String> keys, int[] positions, long timeoutNanos,
            KeyHandler<T> handler, Outcome silentOutcome) {
        byte[][] partKeyBytes = new byte[positions.length][];
        for (int i = 0; i < positions.length; i++) {
            partKeyBytes[i] = keyBytes[positions[i]];
        }
        return new TextBulkRead<>(name, command == GETS, keys, partKeyBytes, timeoutNanos, handler, silentOutcome);
    }

    /**
     * This read, never written, as binary quiet gets (a GETQ per key, then the NOOP), with the same
     * handler and what is left of its time: for a server that refuses the text protocol. This read
     * completes, with every key's result, when the binary one does.
     */
    public BulkOperation<T> overBinary(long nowNanos) {
        Request[] requests = new Request[keyBytes.length + 1];
        int[] positions = new int[keyBytes.length];
        for (int i = 0; i < keyBytes.length; i++) {
            requests[i] = Request.keyed(Opcode.GETQ, keyBytes[i]);
            positions[i] = i;
        }
        requests[keyBytes.length] = BulkOperation.TERMINATOR;
        BulkOperation<T> binary = new BulkOperation<>(name(), keys(), requests, remainingNanos(nowNanos), handler(),
                silentOutcome());
        completeFrom(List.of(binary), List.of(positions));
        return binary;
    }

    @Override
    public boolean isBatch() {
        return true;
    }

    @Override
    public int encodedLength() {
        return encodedLength;
    }

    @Override
    public int writeTo(byte[] target, int offset, int firstOpaque) {
        System.arraycopy(command, 0, target, offset, command.length);
        int at = offset + command.length;
        for (byte[] key : keyBytes) {
            target[at++] = ' ';
            System.arraycopy(key, 0, target, at, key.length);
            at += key.length;
        }
        target[at++] = '\r';
        target[at++] = '\n';
        return at;
    }

    /**
     * Accepts {@code END}, an error line, or a {@code VALUE} for a key asked for after the last
     * one matched, and remembers that key's position for {@link #onResponse}.
     */
    @Override
    public String mismatch(Response response) {
        if (TextProtocolFilter.endsReply(response)) {
            return null;
        }
        byte[] key = response.key();
        for (int i = next; i < keyBytes.length; i++) {
            if (Arrays.equals(keyBytes[i], key)) {
                matched = i;
                return null;
            }
        }
        return "a value for '" + response.keyText() + "', which " + describe() + " did not ask for"
                + (next > 0 ? " after '" + keys().get(next - 1) + "'" : "");
    }

    @Override
    public boolean isLast(Response response) {
        return TextProtocolFilter.endsReply(response);
    }

    @Override
    public void onResponse(Response response) {
        if (!TextProtocolFilter.endsReply(response)) {
            next = matched + 1;
            answer(matched, response);
        } else if (response.ok()) {
            completeBatch();
        } else {
            fail(statusError(response));
        }
    }
}
