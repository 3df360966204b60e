package dev.grizzlyboot.memcached.internal.protocol;

import java.nio.charset.StandardCharsets;

import dev.grizzlyboot.memcached.ServerStatus;

/**
 * One decoded response: a binary-protocol one, or a text-protocol answer to a bulk read in the same
 * shape (see {@link TextProtocolFilter}). Immutable by contract: the arrays are not modified after
 * decoding.
 *
 * @param opcode the opcode byte echoed by the server
 * @param status the status code
 * @param opaque the opaque of the request it answers
 * @param cas    the item's CAS token (0 when not applicable)
 * @param flags  the flags of a GET hit (the first 4 bytes of its extras), otherwise 0
 * @param key    the key, for GETK/STAT responses
 * @param value  the value, or the error text when the status is not 0
 */
public record Response(byte opcode, int status, int opaque, long cas, int flags, byte[] key, byte[] value) {

    /** Whether the status is "no error". */
    public boolean ok() {
        return status == 0;
    }

    /** The status as an enum. */
    public ServerStatus serverStatus() {
        return ServerStatus.of(status);
    }

    /** The value read as an unsigned 64-bit counter (INCREMENT/DECREMENT). */
    public long counterValue() {
        long result = 0;
        for (int i = 0; i < 8 && i < value.length; i++) {
            result = (result << 8) | (value[i] & 0xFF);
        }
        return result;
    }

    /** The value as text (VERSION, STAT values, error messages). */
    public String valueText() {
        return new String(value, StandardCharsets.UTF_8);
    }

    /** The key as text (STAT names). */
    public String keyText() {
        return new String(key, StandardCharsets.UTF_8);
    }
}
