package dev.grizzlyboot.autoconfigure.memcached.endpoint;

import java.util.List;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * A server list shared by every instance of the application (ZooKeeper today), as the
 * {@link MemcachedEndpoint} shows it and proposes changes to it. Implementations are thread-safe.
 */
public interface CoordinatedServerList {

    /** The shared list as this instance sees it now, for the endpoint's JSON. */
    OperationResponseBody describe();

    /**
     * Proposes a new list based on the committed version the caller saw.
     *
     * @return the proposal's version
     * @throws ServerListVersionConflictException if the committed version moved on or another change is open
     * @throws IllegalArgumentException           if the list is empty or malformed
     * @throws dev.grizzlyboot.memcached.MemcachedException if the shared list could not be reached; nothing was proposed
     */
    long propose(List<String> servers, long expectedVersion);
}
