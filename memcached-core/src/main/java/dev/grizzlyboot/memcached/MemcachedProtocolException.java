package dev.grizzlyboot.memcached;

/**
 * The server sent bytes that are not a valid binary-protocol answer, or an answer to a request
 * that was never sent. The client closes that connection and fails every operation waiting on it.
 */
public class MemcachedProtocolException extends MemcachedConnectionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a malformed or unmatched answer.
     *
     * @param message what was wrong with the bytes received
     */
    public MemcachedProtocolException(String message) {
        super(message);
    }
}
