package dev.grizzlyboot.memcached;

/**
 * A value could not be encoded for storage or decoded after reading, for example a class that
 * the deserialization allow-list rejects. Nothing on the server is changed by a failed decode.
 */
public class TranscoderException extends MemcachedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception without a cause.
     *
     * @param message what could not be encoded or decoded
     */
    public TranscoderException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure behind it.
     *
     * @param message what could not be encoded or decoded
     * @param cause the underlying failure, such as an {@code IOException} from deserialization
     */
    public TranscoderException(String message, Throwable cause) {
        super(message, cause);
    }
}
