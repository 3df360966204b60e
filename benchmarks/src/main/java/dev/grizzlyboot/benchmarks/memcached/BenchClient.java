package dev.grizzlyboot.benchmarks.memcached;

import java.util.List;
import java.util.Map;

/**
 * One memcached client under test, reduced to the blocking calls the harness makes. Every method
 * waits for the server's answer and throws on any failure, so a caller thread is a closed loop.
 * Values are always {@code byte[]}, stored raw by every client.
 */
interface BenchClient extends AutoCloseable {

    /** The label in the tables. */
    String label();

    /** Returns the value, or {@code null} on a miss. */
    byte[] get(String key) throws Exception;

    void set(String key, byte[] value) throws Exception;

    void delete(String key) throws Exception;

    /** Returns how many of the keys were hits. */
    int getMulti(List<String> keys) throws Exception;

    /** Stores every entry; returns when the server has acknowledged all of them. */
    void setMulti(Map<String, byte[]> values) throws Exception;

    /** Deletes every key; returns when the server has processed all of them. */
    void deleteMulti(List<String> keys) throws Exception;

    /** How {@link #setMulti} and {@link #deleteMulti} are carried out, for the table notes. */
    String bulkWriteNote();

    @Override
    void close() throws Exception;
}
