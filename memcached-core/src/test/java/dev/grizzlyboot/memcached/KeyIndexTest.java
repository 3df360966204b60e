package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/**
 * The bulk calls' key index against keys crafted to collide: every key still found at its position,
 * and the slots read per key bounded by a constant (counted, not timed), where a plain open
 * addressing table reads a number of slots that grows with the keys.
 */
class KeyIndexTest {

    private static final int KEYS = 4096;
    /** Slots read per add, at most: the limit plus the one that ends the search. */
    private static final int BOUND = KeyIndex.PROBE_LIMIT + 1;

    @Test
    void keysWithOneHashCodeAreEachFoundAtABoundedCost() {
        List<String> keys = collidingKeys(KEYS);
        assertThat(keys).extracting(String::hashCode).containsOnly(keys.get(0).hashCode());
        KeyIndex index = new KeyIndex(keys.size());

        for (String key : keys) {
            assertThat(index.add(key)).isTrue();
        }
        for (String key : keys) {
            assertThat(index.add(key)).isFalse();
        }
        for (int position = 0; position < keys.size(); position++) {
            assertThat(index.indexOf(keys.get(position))).isEqualTo(position);
            assertThat(index.key(position)).isEqualTo(keys.get(position));
        }
        assertThat(index.indexOf(collidingKeys(KEYS + 1).get(KEYS))).isEqualTo(-1);
        assertThat(index.size()).isEqualTo(KEYS);
        // A table that kept probing would have read about KEYS² = 16.8 million slots here.
        assertThat(index.probes()).isLessThanOrEqualTo((long) BOUND * 2 * KEYS);
    }

    @Test
    void collidingKeysBeyondTheExpectedCountAreStillFound() {
        List<String> keys = collidingKeys(KEYS);
        KeyIndex index = new KeyIndex(1);

        for (String key : keys) {
            index.add(key);
        }
        index.add(null);

        assertThat(index.size()).isEqualTo(KEYS + 1);
        for (int position = 0; position < keys.size(); position++) {
            assertThat(index.indexOf(keys.get(position))).isEqualTo(position);
        }
        assertThat(index.indexOf(null)).isEqualTo(KEYS);
        assertThat(index.indexOf(42)).isEqualTo(-1);
        assertThat(index.probes()).isLessThanOrEqualTo((long) BOUND * KEYS);
    }

    @Test
    void aMissInARunOfNeighbouringKeysEndsSoon() {
        // Keys picked to sit each in its own slot, side by side: no collision, but one long run of full
        // slots, where a miss that starts reading in it would read on to its end.
        int run = 1000;
        int mask = KeyIndex.tableSize(run) - 1;
        String[] bySlot = new String[run];
        List<String> absent = new ArrayList<>();
        for (int candidate = 0, placed = 0; placed < run; candidate++) {
            String key = "run:" + candidate;
            int slot = KeyIndex.home(key, mask);
            if (slot < run && bySlot[slot] == null) {
                bySlot[slot] = key;
                placed++;
            } else if (slot < run) {
                absent.add(key);
            }
        }
        List<String> present = List.of(bySlot);
        KeyIndex index = new KeyIndex(run);
        present.forEach(index::add);

        for (String key : absent) {
            assertThat(index.indexOf(key)).isEqualTo(-1);
        }
        for (int position = 0; position < run; position++) {
            assertThat(index.indexOf(present.get(position))).isEqualTo(position);
        }
        assertThat(absent).hasSizeGreaterThan(run);
        assertThat(index.probes()).isEqualTo(run);
        // Every key in its own slot, so a lookup reads one slot; reading on to a free slot would read
        // hundreds per miss here.
        assertThat(index.longestProbe()).isZero();
    }

    @Test
    void ordinaryKeysTakeAboutOneProbeEach() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            keys.add("grizzly-boot:" + (100_000 + i));
            keys.add(UUID.randomUUID().toString());
        }
        KeyIndex index = new KeyIndex(keys.size());
        keys.forEach(index::add);
        for (int position = 0; position < keys.size(); position++) {
            assertThat(index.indexOf(keys.get(position))).isEqualTo(position);
        }
        assertThat(index.probes()).isLessThan(2L * keys.size());
    }

    /** Distinct keys of "Aa" and "BB" pairs: all with one {@code String.hashCode}, all valid memcached keys. */
    static List<String> collidingKeys(int count) {
        int pairs = 32 - Integer.numberOfLeadingZeros(count);
        List<String> keys = new ArrayList<>(count);
        for (int bits = 0; bits < count; bits++) {
            StringBuilder key = new StringBuilder("flood:");
            for (int pair = 0; pair < pairs; pair++) {
                key.append((bits >>> pair & 1) == 0 ? "Aa" : "BB");
            }
            keys.add(key.toString());
        }
        return keys;
    }
}
