package dev.grizzlyboot.autoconfigure.memcached.endpoint;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.ServerResult;
import dev.grizzlyboot.memcached.ServerResults;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerDetails;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code memcached} actuator endpoint: the client's servers (state, weight, version, pool
 * figures), its near cache, the coordinated server list when there is one (versions, commit time,
 * the change in progress), each server's {@code stats}, and a write operation that proposes a new
 * list against the committed version. Read-only unless the application grants write access
 * ({@code management.endpoint.memcached.access=unrestricted}). Thread-safe.
 */
@Endpoint(id = "memcached", defaultAccess = Access.READ_ONLY)
public class MemcachedEndpoint {

    private final MemcachedClient client;
    private final @Nullable CoordinatedServerList serverList;

    /**
     * @param client     the client to show
     * @param serverList the coordinated list, or {@code null} when the list is this instance's own
     */
    public MemcachedEndpoint(MemcachedClient client, @Nullable CoordinatedServerList serverList) {
        this.client = client;
        this.serverList = serverList;
    }

    /** Every server with its state and a VERSION round trip, the near cache and the coordinated list. */
    @ReadOperation
    public MemcachedDescriptor memcached() {
        ServerResults<String> versions = client.versionEach().join();
        List<ServerDescriptor> servers = new ArrayList<>();
        for (ServerDetails details : client.serverDetails()) {
            ServerResult<String> version = versions.get(details.server());
            servers.add(new ServerDescriptor(details.server().toString(), details.state().status().name(),
                    details.state().since(), details.weight(), details.openConnections(), details.pending(),
                    version != null && version.succeeded() ? version.value() : null,
                    version != null && !version.succeeded() ? version.error().getMessage() : null));
        }
        return new MemcachedDescriptor(servers, new NearCacheDescriptor(client.nearCacheSize()),
                serverList != null ? serverList.describe() : null);
    }

    /**
     * One server's general statistics.
     *
     * @return {@code null} if the server is not in the client's list
     * @throws dev.grizzlyboot.memcached.MemcachedException if it did not answer
     */
    @ReadOperation
    public @Nullable Map<String, String> serverStats(@Selector String server) {
        ServerAddress address = ServerAddress.parse(server);
        if (!client.servers().contains(address)) {
            return null;
        }
        ServerResult<Map<String, String>> stats = client.statsEach("").join().get(address);
        if (stats == null) {
            return null;
        }
        if (!stats.succeeded()) {
            throw stats.error();
        }
        return stats.value();
    }

    /**
     * Proposes a new server list to every instance.
     *
     * @param servers         {@code host:port} entries, comma-separated (actuator request bodies hold plain values)
     * @param expectedVersion the committed version the change is based on
     * @throws ServerListVersionConflictException if that is no longer the committed version
     * @throws IllegalStateException              if there is no coordinated list
     * @throws dev.grizzlyboot.memcached.MemcachedException if the coordinated list could not be reached
     */
    @WriteOperation
    public ProposalDescriptor proposeServers(String servers, long expectedVersion) {
        if (serverList == null) {
            throw new IllegalStateException("no coordinated server list: set grizzly.memcached.zookeeper.connect-string");
        }
        return new ProposalDescriptor(serverList.propose(List.of(servers), expectedVersion));
    }

    /**
     * The endpoint's answer.
     *
     * @param servers    every server of the client's list
     * @param nearCache  the near cache
     * @param serverList the coordinated list, or {@code null} without one
     */
    public record MemcachedDescriptor(List<ServerDescriptor> servers, NearCacheDescriptor nearCache,
            @Nullable OperationResponseBody serverList) implements OperationResponseBody {
    }

    /**
     * One server.
     *
     * @param server          {@code host:port}
     * @param state           ACTIVE or FAILED
     * @param since           when it entered that state
     * @param weight          its Ketama weight
     * @param openConnections connections open to it (binary, and the text ones bulk reads use)
     * @param pending         operations queued or in flight
     * @param version         its VERSION answer, or {@code null} if it did not answer
     * @param error           why it did not answer, or {@code null}
     */
    public record ServerDescriptor(String server, String state, Instant since, int weight, int openConnections,
            int pending, @Nullable String version, @Nullable String error) {
    }

    /**
     * The near cache.
     *
     * @param size how many values it holds (an estimate; 0 without a near cache)
     */
    public record NearCacheDescriptor(long size) {
    }

    /**
     * A proposal that was written; every instance now prepares it and switches at the same moment.
     *
     * @param proposedVersion the proposal's version
     */
    public record ProposalDescriptor(long proposedVersion) implements OperationResponseBody {
    }
}
