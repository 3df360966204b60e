package dev.grizzlyboot.memcached.cluster;

/**
 * What the client knows about one server right now, for health checks and monitoring pages: its
 * health, its Ketama weight and its connection pool's figures. A snapshot; immutable.
 *
 * @param state           the server's health
 * @param weight          its Ketama weight (its share of keys is its weight over the total)
 * @param openConnections connections open to it now, the text ones for bulk reads included
 * @param pending         operations queued or in flight on those connections
 */
public record ServerDetails(ServerState state, int weight, int openConnections, int pending) {

    /**
     * The server.
     *
     * @return the server the figures are for
     */
    public ServerAddress server() {
        return state.server();
    }
}
