package dev.grizzlyboot.thrift.transport;

import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.utils.IdleTimeoutFilter;

/**
 * The idle clock of an {@link IdleTimeoutFilter}, for writes that bypass the filter chain: the
 * filter restarts it when a read or write through the chain completes, a reply written straight to
 * the write queue restarts it here, so both count as activity alike. Thread-safe.
 */
final class IdleClock {
    final IdleTimeoutFilter filter;
    private final long timeoutMillis;

    IdleClock(IdleTimeoutFilter filter, long timeoutMillis) {
        this.filter = filter;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Restarts the connection's clock. A read in progress meanwhile has stopped the clock and
     * restarts it itself when done; overwriting its stop sets a deadline a whole timeout away,
     * which the read's completion then keeps, and a busy session is never closed anyway.
     */
    void restart(Connection<?> connection) {
        filter.getResolver().setTimeoutMillis(connection, System.currentTimeMillis() + timeoutMillis);
    }
}
