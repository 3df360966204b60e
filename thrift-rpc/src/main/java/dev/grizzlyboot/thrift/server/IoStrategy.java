package dev.grizzlyboot.thrift.server;

import org.glassfish.grizzly.IOStrategy;
import org.glassfish.grizzly.strategies.LeaderFollowerNIOStrategy;
import org.glassfish.grizzly.strategies.SameThreadIOStrategy;
import org.glassfish.grizzly.strategies.WorkerThreadIOStrategy;

/**
 * Which thread runs the Thrift handler for a request, mapped onto Grizzly's I/O strategies.
 * Only {@link #SAME_THREAD} runs handlers on selector threads, so only choose it for handlers
 * that never block. The default is {@link #CONNECTION_READER}.
 */
public enum IoStrategy {
    /** The selector thread runs the handler: least overhead, but a slow handler stalls every connection of that selector. */
    SAME_THREAD(SameThreadIOStrategy.getInstance()),
    /**
     * The selector thread reads and frames requests and queues them per connection; a worker pool
     * thread runs each connection's queue in order and writes the replies itself. Safe for blocking
     * handlers, with one thread hand-off per call and no re-arming of the selector in between.
     */
    CONNECTION_QUEUE(SameThreadIOStrategy.getInstance()),
    /**
     * As {@link #CONNECTION_QUEUE}, and, while the server has no more connections than worker
     * threads, the worker that emptied a connection's queue keeps the connection if its client
     * called again within a few milliseconds of its last reply: it waits for the next request on a
     * selector of its own and runs it without a hand-off, until the connection is idle for those
     * milliseconds or other connections wait for a worker. With more connections than workers it
     * works as {@link #CONNECTION_QUEUE}. Safe for blocking handlers, which hold up only their own
     * connection. Plain TCP only; with TLS it works as {@link #CONNECTION_QUEUE}.
     */
    CONNECTION_READER(SameThreadIOStrategy.getInstance()),
    /** A worker pool thread runs the handler while selectors keep serving I/O: safe for blocking handlers. */
    WORKER_THREAD(WorkerThreadIOStrategy.getInstance()),
    /** The selector thread hands selecting to a pool thread, then runs the handler itself: fewer hand-offs under load. */
    LEADER_FOLLOWER(LeaderFollowerNIOStrategy.getInstance());

    private final IOStrategy grizzlyStrategy;

    IoStrategy(IOStrategy grizzlyStrategy) {
        this.grizzlyStrategy = grizzlyStrategy;
    }

    IOStrategy grizzlyStrategy() {
        return grizzlyStrategy;
    }

    boolean needsWorkerPool() {
        return this != SAME_THREAD;
    }

    boolean queuesCalls() {
        return this == CONNECTION_QUEUE || this == CONNECTION_READER;
    }

    boolean holdsConnections() {
        return this == CONNECTION_READER;
    }
}
