package dev.grizzlyboot.memcached.cluster;

import java.util.List;

/**
 * A server list prepared but not in use: its ring is built and connections to its new servers are
 * opening. {@link #apply()} makes it the client's list in one atomic step; {@link #discard()}
 * drops it. This is the two-step hook that coordinated changes (all clients switch at one agreed
 * moment) are built on. Thread-safe; apply or discard once.
 */
public interface ServerListChange {

    /**
     * The servers of the new list, in list order.
     *
     * @return an unmodifiable list of the new servers
     */
    List<ServerAddress> servers();

    /**
     * The server that will own a key once this list is applied (every server assumed up).
     *
     * @param key the key
     * @return the key's owner on the new ring
     * @throws dev.grizzlyboot.memcached.InvalidKeyException if no call would take the key
     *     ({@link dev.grizzlyboot.memcached.MemcachedClient#isValidKey})
     */
    ServerAddress ownerOf(String key);

    /** Makes this the client's server list; removed servers close once their pending requests finish. */
    void apply();

    /** Drops the change, closing the connections it opened. */
    void discard();
}
