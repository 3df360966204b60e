package dev.grizzlyboot.memcached;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The distinct keys of a bulk call in call order, each found by its position through one open
 * addressing table of ints: no entry object per key, as a {@code HashMap} would allocate. Built by
 * one thread with {@link #add}, then only read, so it may be shared once published (through a
 * future's completion).
 *
 * <p>Keys often come from users, and strings with equal {@code hashCode} are easy to make ("Aa" and
 * "BB"), so no key may cost more than {@link #PROBE_LIMIT} probes: a key that would need more moves
 * the whole index into a {@code HashMap}, which keeps such collisions in a tree ordered by the keys
 * themselves. A lookup reads no farther than the farthest key sits from its slot, so a miss stays as
 * cheap as a hit.
 */
final class KeyIndex {

    /**
     * The most slots an add may read before the table is given up. Far above what honest keys need in
     * a table at most half full, and small enough that crafted keys cost a bounded amount each.
     */
    static final int PROBE_LIMIT = 32;

    private String[] keys;
    /** A key's position plus one, at its hash's slot or within {@link #longestProbe} slots after it; 0 is free. */
    private int[] table;
    /** The farthest any key sits from its hash's slot: where a lookup stops looking. */
    private int longestProbe;
    /** Every key's position once crafted or unlucky keys collided too often; then {@link #table} is unused. */
    private Map<String, Integer> positions;
    private int size;
    /** How many table slots adds have read, to bound the work in tests (lookups, which may run on any thread, write nothing). */
    private long probes;

    /** @param expected how many keys will be added (more still work: the index grows) */
    KeyIndex(int expected) {
        keys = new String[expected];
        table = new int[tableSize(expected)];
    }

    /**
     * Adds a key unless it is already there; {@code null} is a key like any other.
     *
     * @return whether the key was new
     */
    boolean add(String key) {
        if (positions != null) {
            return addToMap(key);
        }
        int mask = table.length - 1;
        int slot = home(key, mask);
        for (int probe = 0; probe <= PROBE_LIMIT; probe++) {
            int entry = table[slot];
            if (entry == 0) {
                if (size == keys.length) {
                    grow();
                    return add(key);
                }
                probes += probe + 1;
                keys[size] = key;
                table[slot] = ++size;
                if (probe > longestProbe) {
                    longestProbe = probe;
                }
                return true;
            }
            if (Objects.equals(keys[entry - 1], key)) {
                probes += probe + 1;
                return false;
            }
            slot = (slot + 1) & mask;
        }
        // Not within the limit, so not in the table at all (no key sits farther than the limit).
        probes += PROBE_LIMIT + 1;
        moveToMap();
        return addToMap(key);
    }

    /** A key's position in call order, or -1. */
    int indexOf(Object key) {
        if (key != null && !(key instanceof String)) {
            return -1;
        }
        if (positions != null) {
            return positions.getOrDefault(key, 0) - 1;
        }
        int mask = table.length - 1;
        int slot = home((String) key, mask);
        for (int probe = 0; probe <= longestProbe; probe++) {
            int entry = table[slot];
            if (entry == 0) {
                return -1;
            }
            if (Objects.equals(keys[entry - 1], key)) {
                return entry - 1;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    /** The key at a position. */
    String key(int position) {
        return keys[position];
    }

    int size() {
        return size;
    }

    /** How many table slots adds have read so far. */
    long probes() {
        return probes;
    }

    /** The farthest any key sits from its slot: a lookup reads at most one slot more. */
    int longestProbe() {
        return longestProbe;
    }

    /**
     * The top bits of the hash times the golden ratio: keys that differ only in their last characters
     * ("user:1001", "user:1002") have neighbouring hash codes, which the low bits would put in one run of
     * slots that every later key in it has to walk.
     */
    static int home(String key, int mask) {
        int hash = key == null ? 0 : key.hashCode();
        return (hash * 0x9E3779B9) >>> Integer.numberOfLeadingZeros(mask);
    }

    /** Room for twice the keys (a collection whose size() was too small, or changed while read). */
    private void grow() {
        keys = Arrays.copyOf(keys, keys.length * 2 + 1);
        if (positions != null) {
            return;
        }
        table = new int[tableSize(keys.length)];
        longestProbe = 0;
        int mask = table.length - 1;
        for (int position = 0; position < size; position++) {
            int slot = home(keys[position], mask);
            int probe = 0;
            // The keys are distinct: each goes to the first free slot.
            while (table[slot] != 0) {
                probes++;
                if (++probe > PROBE_LIMIT) {
                    moveToMap();
                    return;
                }
                slot = (slot + 1) & mask;
            }
            table[slot] = position + 1;
            longestProbe = Math.max(longestProbe, probe);
        }
    }

    private void moveToMap() {
        positions = new HashMap<>(tableSize(keys.length));
        for (int position = 0; position < size; position++) {
            positions.put(keys[position], position + 1);
        }
        table = null;
    }

    private boolean addToMap(String key) {
        if (positions.putIfAbsent(key, size + 1) != null) {
            return false;
        }
        if (size == keys.length) {
            grow();
        }
        keys[size++] = key;
        return true;
    }

    /** A power of two at least twice the keys: at most half full, so probes stay short and a miss ends soon. */
    static int tableSize(int keys) {
        return Math.max(2, Integer.highestOneBit(Math.max(1, keys) * 2 - 1) << 1);
    }
}
