package dev.grizzlyboot.memcached.cluster;

/**
 * How a server is named when its Ketama points are hashed. Two clients agree on where a key
 * lives only if they name servers alike, so pick the naming of the clients you share servers with.
 */
public enum KetamaNaming {

    /**
     * {@code host:port} always, as written in the configuration. Matches spymemcached's default
     * naming for servers given as IP addresses, and libmemcached's for ports other than 11211.
     */
    HOST_PORT,

    /**
     * {@code host} alone on port 11211, {@code host:port} otherwise: libmemcached's naming (and
     * spymemcached's {@code KetamaNodeKeyFormatter.Format.LIBMEMCACHED}).
     */
    LIBMEMCACHED;

    /** The name hashed for a server's points. */
    public String name(ServerAddress server) {
        if (this == LIBMEMCACHED && server.port() == ServerAddress.DEFAULT_PORT) {
            return server.host();
        }
        return server.toString();
    }
}
