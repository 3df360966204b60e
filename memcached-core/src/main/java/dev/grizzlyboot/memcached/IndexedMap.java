package dev.grizzlyboot.memcached;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An unmodifiable map over a {@link KeyIndex} and an array of values by position: iteration in
 * call order, lookups through the index, and no entry object per key until one is iterated.
 * What {@link BulkResult} hands out instead of copying its results into a {@code LinkedHashMap}.
 * Immutable; safe to share.
 *
 * @param <V> the value type
 */
final class IndexedMap<V> extends AbstractMap<String, V> {

    private final KeyIndex keys;
    private final Object[] values;

    /** @param values the value of each key of {@code keys}, by position (the array is not copied: never change it) */
    IndexedMap(KeyIndex keys, Object[] values) {
        this.keys = keys;
        this.values = values;
    }

    @Override
    public int size() {
        return keys.size();
    }

    @Override
    public boolean containsKey(Object key) {
        return keys.indexOf(key) >= 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        int position = keys.indexOf(key);
        return position < 0 ? null : (V) values[position];
    }

    @Override
    public Set<Map.Entry<String, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return keys.size();
            }

            @Override
            public Iterator<Map.Entry<String, V>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < keys.size();
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Map.Entry<String, V> next() {
                        if (next >= keys.size()) {
                            throw new NoSuchElementException();
                        }
                        int position = next++;
                        return new AbstractMap.SimpleImmutableEntry<>(keys.key(position), (V) values[position]);
                    }
                };
            }
        };
    }
}
