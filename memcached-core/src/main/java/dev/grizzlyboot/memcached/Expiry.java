package dev.grizzlyboot.memcached;

import java.time.Duration;

/** Converts expiry durations into memcached's expiration field. Stateless. */
final class Expiry {

    /** memcached reads expirations above 30 days as absolute Unix times. */
    private static final long RELATIVE_LIMIT_SECONDS = 60L * 60 * 24 * 30;

    private Expiry() {
    }

    /**
     * The wire value for an expiry: 0 for {@link Duration#ZERO} (never expires), whole seconds
     * rounded up (so that a short positive expiry never means "never"), and an absolute Unix
     * time for anything over 30 days.
     */
    static int toWire(Duration expiry) {
        if (expiry.isNegative()) {
            throw new IllegalArgumentException("expiry must not be negative: " + expiry);
        }
        if (expiry.isZero()) {
            return 0;
        }
        long seconds = expiry.getSeconds() + (expiry.getNano() > 0 ? 1 : 0);
        if (seconds <= RELATIVE_LIMIT_SECONDS) {
            return (int) seconds;
        }
        long absolute = System.currentTimeMillis() / 1000 + seconds;
        if (absolute > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("expiry too far in the future: " + expiry);
        }
        return (int) absolute;
    }
}
