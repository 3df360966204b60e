package dev.grizzlyboot.memcached.internal.connection;

import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.internal.protocol.Operation;

/**
 * Pool events for a pool tested on its own, without a cluster: health reports go nowhere, nothing
 * is routed elsewhere, and unsent operations are held or not as the test says.
 */
record QuietPoolEvents(boolean holdUnsent) implements PoolEvents {

    /** A server that is not marked failed while another is live: unsent operations are held. */
    static QuietPoolEvents holding() {
        return new QuietPoolEvents(true);
    }

    /** The only server: unsent operations fail. */
    static QuietPoolEvents onlyServer() {
        return new QuietPoolEvents(false);
    }

    @Override
    public void connectFailed(MemcachedException error) {
    }

    @Override
    public void connectionLost(MemcachedException error) {
    }

    @Override
    public void timedOut(int operations) {
    }

    @Override
    public void answered() {
    }

    @Override
    public boolean rerouteUnsent(Operation<?> operation) {
        return false;
    }
}
