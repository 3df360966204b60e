package dev.grizzlyboot.memcached;

/**
 * The server refused this client's SASL login (wrong user or password, or no common mechanism),
 * or requires a login the client was not configured with. The message names the server and the
 * user, never the password. The client keeps retrying with back-off, so fixing the server's user
 * database heals the client without a restart.
 */
public class AuthenticationException extends MemcachedStatusException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a refused or missing login.
     *
     * @param status the status the server answered with
     * @param message what was refused, naming the server and the user
     */
    public AuthenticationException(ServerStatus status, String message) {
        super(status, message);
    }
}
