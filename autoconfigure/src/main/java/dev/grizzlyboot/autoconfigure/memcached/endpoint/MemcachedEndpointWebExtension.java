package dev.grizzlyboot.autoconfigure.memcached.endpoint;

import java.util.Map;

import dev.grizzlyboot.memcached.MemcachedException;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * HTTP status codes for the {@link MemcachedEndpoint}: 404 for a server not in the list, 503 for a
 * server that does not answer, 400 for a malformed list (or no coordinated list), 409 with the
 * current version for a proposal based on a stale one, and 503 for a proposal while ZooKeeper
 * cannot be reached. Thread-safe.
 */
@EndpointWebExtension(endpoint = MemcachedEndpoint.class)
public class MemcachedEndpointWebExtension {

    private final MemcachedEndpoint delegate;

    public MemcachedEndpointWebExtension(MemcachedEndpoint delegate) {
        this.delegate = delegate;
    }

    @ReadOperation
    public WebEndpointResponse<Object> serverStats(@Selector String server) {
        try {
            Map<String, String> stats = delegate.serverStats(server);
            return stats == null ? new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND)
                    : new WebEndpointResponse<>(stats);
        } catch (IllegalArgumentException e) {
            return new WebEndpointResponse<>(Map.of("error", e.getMessage()), WebEndpointResponse.STATUS_BAD_REQUEST);
        } catch (MemcachedException e) {
            return new WebEndpointResponse<>(Map.of("server", server, "error", String.valueOf(e.getMessage())),
                    WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        }
    }

    @WriteOperation
    public WebEndpointResponse<Object> proposeServers(String servers, long expectedVersion) {
        try {
            return new WebEndpointResponse<>(delegate.proposeServers(servers, expectedVersion));
        } catch (ServerListVersionConflictException e) {
            return new WebEndpointResponse<>(Map.of("error", e.getMessage(), "expectedVersion", expectedVersion,
                    "currentVersion", e.currentVersion()), 409);
        } catch (IllegalArgumentException | IllegalStateException e) {
            return new WebEndpointResponse<>(Map.of("error", e.getMessage()), WebEndpointResponse.STATUS_BAD_REQUEST);
        } catch (MemcachedException e) {
            // ZooKeeper could not be reached: nothing was proposed, and the caller may retry.
            return new WebEndpointResponse<>(Map.of("error", String.valueOf(e.getMessage())),
                    WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        }
    }
}
