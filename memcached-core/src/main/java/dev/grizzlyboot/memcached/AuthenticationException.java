package dev.grizzlyboot.memcached;

/**
 * The server requires authentication (SASL) that this connection has not completed.
 */
public class AuthenticationException extends MemcachedStatusException {

    private static final long serialVersionUID = 1L;

    public AuthenticationException(ServerStatus status, String message) {
        super(status, message);
    }
}
