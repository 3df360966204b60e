package dev.grizzlyboot.memcached;

/**
 * A value could not be encoded for storage or decoded after reading, for example a class that
 * the deserialization allow-list rejects. Nothing on the server is changed by a failed decode.
 */
public class TranscoderException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    public TranscoderException(String message) {
        super(message);
    }

    public TranscoderException(String message, Throwable cause) {
        super(message, cause);
    }
}
