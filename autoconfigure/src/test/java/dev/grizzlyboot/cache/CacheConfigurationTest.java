package dev.grizzlyboot.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The configuration value object and the jitter arithmetic, without a server. */
class CacheConfigurationTest {

    @Test
    void defaultsAreNoExpiryNoJitterNullsCachedNoPrefix() {
        MemcachedCacheConfiguration defaults = MemcachedCacheConfiguration.defaultCacheConfig();

        assertThat(defaults.getTtl()).isEqualTo(Duration.ZERO);
        assertThat(defaults.getTtlJitter()).isZero();
        assertThat(defaults.isCacheNullValues()).isTrue();
        assertThat(defaults.getKeyPrefix()).isEmpty();
    }

    @Test
    void withersReturnCopiesAndLeaveTheOriginalAlone() {
        MemcachedCacheConfiguration defaults = MemcachedCacheConfiguration.defaultCacheConfig();
        MemcachedCacheConfiguration custom = defaults.ttl(Duration.ofMinutes(10)).ttlJitter(0.1)
                .cacheNullValues(false).keyPrefix("myapp");

        assertThat(custom.getTtl()).isEqualTo(Duration.ofMinutes(10));
        assertThat(custom.getTtlJitter()).isEqualTo(0.1);
        assertThat(custom.isCacheNullValues()).isFalse();
        assertThat(custom.getKeyPrefix()).isEqualTo("myapp");
        assertThat(defaults).isEqualTo(MemcachedCacheConfiguration.defaultCacheConfig());
        assertThat(custom).isEqualTo(defaults.keyPrefix("myapp").cacheNullValues(false).ttlJitter(0.1).ttl(Duration.ofMinutes(10)))
                .isNotEqualTo(defaults);
    }

    @Test
    void badSettingsAreRejected() {
        MemcachedCacheConfiguration defaults = MemcachedCacheConfiguration.defaultCacheConfig();

        assertThatThrownBy(() -> defaults.ttl(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ttl");
        for (double jitter : new double[] {-0.1, 1.0, 1.5, Double.NaN}) {
            assertThatThrownBy(() -> defaults.ttlJitter(jitter)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("ttlJitter");
        }
        assertThatThrownBy(() -> defaults.ttl(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> defaults.keyPrefix(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void jitteredTtlCoversTheWholeSecondsOfTheRangeAndNothingElse() {
        Random random = new Random(42);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            seen.add(JitteredTtl.next(Duration.ofSeconds(10), 0.5, random).getSeconds());
        }
        assertThat(seen).containsExactlyInAnyOrder(5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L);
    }

    @Test
    void jitteredTtlEdgeCases() {
        Random random = new Random(7);
        assertThat(JitteredTtl.next(Duration.ZERO, 0.5, random)).as("0 = no expiry, no jitter").isEqualTo(Duration.ZERO);
        assertThat(JitteredTtl.next(Duration.ofMinutes(10), 0, random)).isEqualTo(Duration.ofMinutes(10));
        assertThat(JitteredTtl.next(Duration.ofMillis(300), 0, random)).as("at least 1 s").isEqualTo(Duration.ofSeconds(1));
        assertThat(JitteredTtl.next(Duration.ofSeconds(1), 0.9, random)).as("never below 1 s").isEqualTo(Duration.ofSeconds(1));
        assertThat(JitteredTtl.next(Duration.ofMillis(1_500), 0.1, random)).as("no whole second in [1.35, 1.65]")
                .isEqualTo(Duration.ofSeconds(2));
    }
}
