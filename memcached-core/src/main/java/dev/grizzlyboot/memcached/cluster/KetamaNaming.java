package dev.grizzlyboot.memcached.cluster;

/**
 * Whose Ketama ring to build: how a server is named when its points are hashed, and how many
 * points it gets. Two clients agree on where a key lives only if they build the same ring, so pick
 * the mode of the clients you share servers with.
 */
public enum KetamaNaming {

    /**
     * spymemcached's ring (its default {@code KetamaNodeLocator}): {@code host:port} always, as
     * written in the configuration, and exactly 160 points per server when all weights are equal
     * (spymemcached without weights), its weighted formula when they differ. Matches spymemcached
     * for servers given as IP addresses.
     */
    HOST_PORT,

    /**
     * libmemcached's {@code ketama_weighted} ring (pylibmc's {@code ketama_weighted} behaviour,
     * PHP memcached's {@code OPT_LIBKETAMA_COMPATIBLE}): {@code host} alone on port 11211,
     * {@code host:port} otherwise, and the weighted formula also for equal weights, whose float
     * arithmetic gives fewer than 160 points per server at some server counts (156 at 25).
     */
    LIBMEMCACHED;

    /**
     * The name hashed for a server's points.
     *
     * @param server a server of the ring
     * @return the text whose hashes place the server's points
     */
    public String name(ServerAddress server) {
        if (this == LIBMEMCACHED && server.port() == ServerAddress.DEFAULT_PORT) {
            return server.host();
        }
        return server.toString();
    }
}
