package dev.grizzlyboot.memcached;

/**
 * Which threads run the client's response handling (decoding and completing futures), chosen
 * from Grizzly's I/O strategies.
 */
public enum IoStrategy {
    /** The selector thread that read the bytes handles them: lowest latency; callbacks must not block. */
    SAME_THREAD,
    /** A worker pool handles reads, so a slow callback cannot stall a selector. */
    WORKER_THREAD,
    /** Grizzly's leader-follower: the reading thread hands selection to another and handles the read itself. */
    LEADER_FOLLOWER
}
