package dev.grizzlyboot.memcached;

/**
 * A TLS connection to a server could not be set up: its certificate is not trusted or does not
 * match the host name, it asked for a client certificate the client does not have, or the two
 * share no protocol version or cipher. The connection is closed; the client never falls back to
 * plaintext, and retries with back-off like any failed connect.
 */
public class TlsHandshakeException extends MemcachedConnectionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a failed handshake.
     *
     * @param message the server and what the handshake failed on
     * @param cause the failure behind it, usually an {@code SSLException}
     */
    public TlsHandshakeException(String message, Throwable cause) {
        super(message, cause);
    }
}
