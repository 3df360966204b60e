package dev.grizzlyboot.benchmarks.memcached;

import java.time.Duration;

/** The one expiry every client stores with, so no client gets a cheaper "never expires" path. */
final class Expiry {

    static final Duration TTL = Duration.ofHours(1);
    static final int TTL_SECONDS = (int) TTL.toSeconds();

    private Expiry() {
    }
}
