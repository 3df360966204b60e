package dev.grizzlyboot.thrift.transport;

import org.glassfish.grizzly.WriteHandler;
import org.glassfish.grizzly.asyncqueue.TaskQueue;
import org.glassfish.grizzly.nio.NIOConnection;

/**
 * The replies a connection's client has not taken yet: the bytes in its write queue, whether TLS
 * or plain, direct or through the chain. Above {@link #LIMIT} the server makes no further reply on
 * that connection and stops reading it until the queue has drained below half of it, so a client
 * that pipelines requests and never reads cannot make the server hold its replies without bound.
 * Thread-safe.
 */
final class ReplyBacklog {
    /**
     * Queued bytes above which reading stops. A fixed amount, not some number of maximum-size
     * frames: at the default 16 MB frame that would let each connection hold tens of megabytes.
     * Throughput does not need more, as the kernel's send buffer (up to 4 MB on Linux) sits in
     * front of it; and a larger reply is still written whole, as the bound only stops reading.
     */
    static final int LIMIT = 1 << 20;
    /** Queued bytes below which reading resumes; half, so a busy connection does not flip per reply. */
    static final int RESUME_BELOW = LIMIT / 2;

    private final TaskQueue<?> queue;

    /**
     * Watches the connection's write queue. Its write-queue limit becomes {@link #RESUME_BELOW},
     * as that is the level at which Grizzly calls back a {@link WriteHandler}; nothing else on a
     * Thrift server chain reads that limit.
     */
    ReplyBacklog(NIOConnection connection) {
        this.queue = connection.getAsyncWriteQueue();
        connection.setMaxAsyncWriteQueueSize(RESUME_BELOW);
    }

    /** True while the write queue holds more than {@link #LIMIT} bytes. */
    boolean full() {
        return queue.spaceInBytes() > LIMIT;
    }

    /** True while the write queue holds any bytes. */
    boolean waiting() {
        return queue.spaceInBytes() > 0;
    }

    /**
     * Runs {@code drained} once the queue holds less than {@link #RESUME_BELOW} bytes: on the
     * thread that writes or drains it, right away if it already does. Never if the connection closes.
     */
    void whenDrained(Runnable drained) {
        queue.notifyWritePossible(new WriteHandler() {
            @Override
            public void onWritePossible() {
                drained.run();
            }

            @Override
            public void onError(Throwable closed) {
                // The connection is closed; there is nothing left to read.
            }
        }, RESUME_BELOW);
    }
}
