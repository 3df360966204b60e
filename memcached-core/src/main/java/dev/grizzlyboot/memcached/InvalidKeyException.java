package dev.grizzlyboot.memcached;

/**
 * A key memcached would not accept: empty, longer than 250 bytes in UTF-8, or holding whitespace
 * or control characters; or one with an unpaired surrogate, which has no UTF-8 form and would
 * otherwise become another key. Thrown before anything is sent, so the connection is not affected.
 */
public class InvalidKeyException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a rejected key.
     *
     * @param message what is wrong with the key
     */
    public InvalidKeyException(String message) {
        super(message);
    }
}
