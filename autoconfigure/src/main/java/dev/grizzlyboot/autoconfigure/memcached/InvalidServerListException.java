package dev.grizzlyboot.autoconfigure.memcached;

import java.util.List;

/**
 * {@code grizzly.memcached.servers} is not a usable server list: an entry is not a {@code host:port},
 * a server is listed twice, or the list is empty. Thrown at start-up, when the connection details
 * are created, and explained by {@link InvalidServerListFailureAnalyzer}.
 */
final class InvalidServerListException extends IllegalArgumentException {

    private final List<String> servers;
    private final String reason;

    InvalidServerListException(List<String> servers, String reason, Throwable cause) {
        super("grizzly.memcached.servers " + servers + " is not a valid server list: " + reason, cause);
        this.servers = List.copyOf(servers);
        this.reason = reason;
    }

    /** The configured entries, as written. */
    List<String> servers() {
        return servers;
    }

    /** Why the list is not valid. */
    String reason() {
        return reason;
    }
}
