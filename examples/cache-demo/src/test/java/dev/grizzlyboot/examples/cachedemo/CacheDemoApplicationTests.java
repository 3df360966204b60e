package dev.grizzlyboot.examples.cachedemo;

import java.util.List;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's showcase against real memcached: every call succeeds, and the calls meant to be
 * served from memcached took less than the repository's latency, which every repository call
 * takes at least.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "demo.repository-latency=500ms")
class CacheDemoApplicationTests {

    private static final double LATENCY_MILLIS = 500;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        registry.add("grizzly.memcached.servers", memcached::addressList);
    }

    @Autowired
    Showcase showcase;

    @Test
    void showcaseShowsSlowFirstCallsAndFastRepeats() {
        List<Showcase.Step> steps = showcase.run();
        assertThat(steps).extracting(Showcase.Step::status).containsExactly(204, 200, 200, 200, 200, 204, 200, 200, 200);
        assertThat(steps.get(1).serverMillis()).as("first call").isGreaterThanOrEqualTo(LATENCY_MILLIS);
        assertThat(steps.get(2).serverMillis()).as("repeat").isLessThan(LATENCY_MILLIS);
        assertThat(steps.get(3).serverMillis()).as("@CachePut writes through").isGreaterThanOrEqualTo(LATENCY_MILLIS);
        assertThat(steps.get(4).serverMillis()).as("read after @CachePut").isLessThan(LATENCY_MILLIS);
        assertThat(steps.get(4).body()).contains("3rd ed.");
        assertThat(steps.get(6).serverMillis()).as("read after @CacheEvict").isGreaterThanOrEqualTo(LATENCY_MILLIS);
        assertThat(steps.get(7).serverMillis()).as("second cache, first call").isGreaterThanOrEqualTo(LATENCY_MILLIS);
        assertThat(steps.get(8).serverMillis()).as("second cache, repeat").isLessThan(LATENCY_MILLIS);
        assertThat(Long.parseLong(memcached.get(0).stats().get("curr_items"))
                + Long.parseLong(memcached.get(1).stats().get("curr_items"))).as("entries stored in memcached").isPositive();
    }
}
