package dev.grizzlyboot.memcached;

import java.util.Arrays;
import java.util.Objects;

/**
 * The distinct keys of a bulk call in call order, each found by its position through one open
 * addressing table of ints: no entry object per key, as a {@code HashMap} would allocate. Built by
 * one thread with {@link #add}, then only read, so it may be shared once published (through a
 * future's completion).
 */
final class KeyIndex {

    private String[] keys;
    /** A key's position plus one, at its hash's slot or the next free one after it; 0 is free. */
    private int[] table;
    private int size;

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
        int slot = slotOf(key);
        if (table[slot] != 0) {
            return false;
        }
        if (size == keys.length) {
            grow();
            slot = slotOf(key);
        }
        keys[size] = key;
        table[slot] = ++size;
        return true;
    }

    /** A key's position in call order, or -1. */
    int indexOf(Object key) {
        if (key != null && !(key instanceof String)) {
            return -1;
        }
        return table[slotOf((String) key)] - 1;
    }

    /** The key at a position. */
    String key(int position) {
        return keys[position];
    }

    int size() {
        return size;
    }

    /** The slot that holds the key, or the free slot where it would go. */
    private int slotOf(String key) {
        int mask = table.length - 1;
        int hash = key == null ? 0 : key.hashCode();
        int slot = (hash ^ (hash >>> 16)) & mask;
        while (table[slot] != 0 && !Objects.equals(keys[table[slot] - 1], key)) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    /** Room for twice the keys (a collection whose size() was too small, or changed while read). */
    private void grow() {
        keys = Arrays.copyOf(keys, keys.length * 2 + 1);
        table = new int[tableSize(keys.length)];
        for (int position = 0; position < size; position++) {
            table[slotOf(keys[position])] = position + 1;
        }
    }

    /** A power of two at least twice the keys: at most half full, so probes stay short and a miss ends soon. */
    private static int tableSize(int keys) {
        return Math.max(2, Integer.highestOneBit(Math.max(1, keys) * 2 - 1) << 1);
    }
}
