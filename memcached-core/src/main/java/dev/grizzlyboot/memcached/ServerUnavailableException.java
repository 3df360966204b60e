package dev.grizzlyboot.memcached;

/**
 * The operation was not sent because the server its key maps to is marked failed (with failover
 * off, or when the key's replicas are failed too), or because every server is. Thrown at once,
 * without waiting for a timeout; the server comes back when the client's health check reaches it.
 */
public class ServerUnavailableException extends MemcachedConnectionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a key whose servers are all marked failed.
     *
     * @param message which server is marked failed (or that every server is), and since when
     * @param cause the failure that marked the server failed, if known
     */
    public ServerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
