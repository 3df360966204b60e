package dev.grizzlyboot.benchmarks.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.grizzlyboot.testsupport.MemcachedProcess;

/** The hand-written blocking client the one-thread rows are compared with, against a real memcached. */
class RoundTripFloorTest {

    @Test
    void readsBackWhatItStoredAtEverySizeAndStaysInStepAfterAnError() throws IOException {
        try (MemcachedProcess memcached = MemcachedProcess.start();
                RoundTripFloor floor = new RoundTripFloor(memcached.address())) {
            Random random = new Random(3);
            for (int size : new int[] {0, 1, 24, 65_535, 65_536, 200_000}) {
                byte[] value = new byte[size];
                random.nextBytes(value);
                floor.set("floor:" + size, value);
                assertThat(floor.get("floor:" + size)).as("%d B", size).isEqualTo(value);
            }
            assertThat(floor.get("floor:missing")).isNull();

            // Over memcached's 1 MB item limit: an error status whose body is skipped, not left in the stream.
            assertThatThrownBy(() -> floor.set("floor:too-big", new byte[2 * 1024 * 1024]))
                    .isInstanceOf(IOException.class).hasMessageStartingWith("memcached status");
            floor.delete("floor:1");
            assertThat(floor.get("floor:1")).isNull();
            assertThat(floor.get("floor:24")).hasSize(24);
        }
    }
}
