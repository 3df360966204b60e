package dev.grizzlyboot.autoconfigure.memcached.endpoint;

/**
 * A proposal to a {@link CoordinatedServerList} was based on a version that is no longer current
 * (or another change is still open); the endpoint answers it with HTTP 409 and the current
 * version. Immutable.
 */
public class ServerListVersionConflictException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long currentVersion;

    public ServerListVersionConflictException(String message, long currentVersion, Throwable cause) {
        super(message, cause);
        this.currentVersion = currentVersion;
    }

    /** The committed version when the conflict was found; propose against this one. */
    public long currentVersion() {
        return currentVersion;
    }
}
