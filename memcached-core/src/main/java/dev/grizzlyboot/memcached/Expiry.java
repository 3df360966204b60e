package dev.grizzlyboot.memcached;

import java.time.Duration;

/** Converts expiry durations into memcached's expiration field. Stateless. */
final class Expiry {

    /** memcached reads expirations above 30 days as absolute Unix times. */
    private static final long RELATIVE_LIMIT_SECONDS = 60L * 60 * 24 * 30;

    /** The binary protocol's expiration is an unsigned 32-bit Unix time: 2106-02-07T06:28:15Z at the latest. */
    private static final long LATEST_UNIX_TIME = 0xFFFFFFFFL;

    private Expiry() {
    }

    /**
     * The wire value for an expiry: 0 for {@link Duration#ZERO} (never expires), whole seconds
     * rounded up (so that a short positive expiry never means "never"), and an absolute Unix
     * time for anything over 30 days.
     *
     * @throws IllegalArgumentException if the expiry is negative or ends after 2106-02-07T06:28:15Z
     */
    static int toWire(Duration expiry) {
        if (expiry.isNegative()) {
            throw new IllegalArgumentException("expiry must not be negative: " + expiry);
        }
        if (expiry.isZero()) {
            return 0;
        }
        long whole = expiry.getSeconds();
        // Saturating, so that the longest durations (ChronoUnit.FOREVER's) do not round up to a negative number.
        long seconds = whole == Long.MAX_VALUE ? whole : whole + (expiry.getNano() > 0 ? 1 : 0);
        if (seconds <= RELATIVE_LIMIT_SECONDS) {
            return (int) seconds;
        }
        long now = System.currentTimeMillis() / 1000;
        // Compared before adding: now + seconds would overflow for durations near Long.MAX_VALUE
        // seconds, and its low 32 bits would be a time in the past (an item stored already expired).
        if (seconds > LATEST_UNIX_TIME - now) {
            throw new IllegalArgumentException("expiry too far in the future: " + expiry);
        }
        return (int) (now + seconds);
    }
}
