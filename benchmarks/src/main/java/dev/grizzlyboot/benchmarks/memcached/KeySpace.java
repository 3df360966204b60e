package dev.grizzlyboot.benchmarks.memcached;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys and the value one client uses for one value size, built once so that the measured
 * loops allocate nothing of their own. Keys are split into consecutive batches for the bulk
 * workloads. Each client gets its own key space, so no client reads what another one wrote.
 */
final class KeySpace {

    private final String[] keys;
    private final byte[] value;
    private final List<List<String>> keyBatches = new ArrayList<>();
    private final List<Map<String, byte[]>> entryBatches = new ArrayList<>();

    KeySpace(String prefix, int count, int valueSize, int batchSize) {
        keys = new String[count];
        for (int i = 0; i < count; i++) {
            keys[i] = prefix + ':' + valueSize + ':' + i;
        }
        value = new byte[valueSize];
        Arrays.fill(value, (byte) 'v');
        for (int from = 0; from + batchSize <= count; from += batchSize) {
            List<String> batch = List.of(Arrays.copyOfRange(keys, from, from + batchSize));
            Map<String, byte[]> entries = new LinkedHashMap<>();
            batch.forEach(key -> entries.put(key, value));
            keyBatches.add(batch);
            entryBatches.add(entries);
        }
    }

    int size() {
        return keys.length;
    }

    String key(int index) {
        return keys[index];
    }

    byte[] value() {
        return value;
    }

    int batchCount() {
        return keyBatches.size();
    }

    List<String> keyBatch(int index) {
        return keyBatches.get(index);
    }

    Map<String, byte[]> entryBatch(int index) {
        return entryBatches.get(index);
    }
}
