package dev.grizzlyboot.cache;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Draws the expiry of one write from a TTL and a jitter. Stateless.
 *
 * <p>The expiry is a whole number of seconds drawn uniformly from those in
 * {@code [ttl*(1-j), ttl*(1+j)]}; when that range holds no whole second (a short TTL with little
 * jitter) it is the next whole second above it. Never below 1 s, so a positive TTL never turns
 * into memcached's "no expiry". A TTL of 0 stays 0.
 */
final class JitteredTtl {

    private JitteredTtl() {
    }

    static Duration next(Duration ttl, double jitter, RandomGenerator random) {
        if (ttl.isZero()) {
            return Duration.ZERO;
        }
        double seconds = ttl.getSeconds() + ttl.getNano() / 1e9;
        long lowest = Math.max(1, (long) Math.ceil(seconds * (1 - jitter)));
        long highest = Math.max(lowest, (long) Math.floor(seconds * (1 + jitter)));
        return Duration.ofSeconds(lowest == highest ? lowest : random.nextLong(lowest, highest + 1));
    }
}
