package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link Expiry#toWire} over generated durations across the whole range, against what memcached
 * makes of the wire value: up to 30 days a relative number of seconds, above that an unsigned
 * 32-bit Unix time. Every duration is either refused or sent as a time at least as far away as it
 * asks for (rounded up to whole seconds), never as "never" (0) or a time in the past.
 */
class ExpiryTest {

    private static final long RELATIVE_LIMIT = 2_592_000;
    private static final long LATEST_UNIX_TIME = 0xFFFF_FFFFL;

    @Test
    void everyDurationIsRefusedOrSentAsMemcachedReadsIt() {
        Random random = new Random(2_592_000);
        int refused = 0;
        for (int i = 0; i < 200_000; i++) {
            long seconds = switch (i % 4) {
                // Any bit length up to Long.MAX_VALUE.
                case 0 -> random.nextLong() >>> (1 + random.nextInt(63));
                // Around the 30-day boundary.
                case 1 -> RELATIVE_LIMIT - 3 + random.nextInt(7);
                // Around the last Unix time the protocol can say, and where adding to now overflows.
                case 2 -> LATEST_UNIX_TIME - System.currentTimeMillis() / 1000 - 3 + random.nextInt(7);
                default -> Long.MAX_VALUE - random.nextInt(1 << 20) * (long) random.nextInt(1 << 20);
            };
            Duration expiry = Duration.ofSeconds(seconds, random.nextBoolean() ? 0 : 1 + random.nextInt(999_999_999));
            if (expiry.isZero()) {
                continue;
            }
            long before = System.currentTimeMillis() / 1000;
            long wire;
            try {
                wire = Integer.toUnsignedLong(Expiry.toWire(expiry));
            } catch (IllegalArgumentException e) {
                refused++;
                assertThat(expiry.getSeconds()).as("%s refused", expiry).isGreaterThanOrEqualTo(LATEST_UNIX_TIME - before - 1);
                continue;
            }
            long after = System.currentTimeMillis() / 1000;
            long asked = expiry.getSeconds() + (expiry.getNano() > 0 ? 1 : 0);
            if (asked <= RELATIVE_LIMIT) {
                assertThat(wire).as("%s relative", expiry).isEqualTo(asked);
            } else {
                assertThat(wire).as("%s absolute", expiry).isBetween(before + asked, after + asked);
            }
        }
        assertThat(refused).as("durations refused").isGreaterThan(50_000);
    }
}
