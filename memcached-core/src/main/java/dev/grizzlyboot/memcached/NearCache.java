package dev.grizzlyboot.memcached;

import dev.grizzlyboot.memcached.transcoder.CachedData;

/**
 * The optional in-process tier in front of memcached. It holds values as stored bytes, so every
 * reader decodes its own copy and no two callers share a mutable object. Writes through the client
 * invalidate (not update) the key, and a read result is kept only if no write through the client
 * happened while it was in flight, so this client never sees its own writes undone.
 * Thread-safe.
 */
interface NearCache {

    /** The tier that holds nothing: every read goes to memcached. */
    NearCache NONE = new NearCache() {
        @Override
        public boolean enabled() {
            return false;
        }

        @Override
        public CachedData get(String key) {
            return null;
        }

        @Override
        public long epoch() {
            return 0;
        }

        @Override
        public void loaded(String key, CachedData data, long epochAtSend) {
        }

        @Override
        public void invalidate(String key) {
        }

        @Override
        public void absent(String key) {
        }

        @Override
        public void invalidateAll() {
        }

        @Override
        public void invalidateAllFor(long nanos) {
        }

        @Override
        public long hitCount() {
            return 0;
        }

        @Override
        public long missCount() {
            return 0;
        }

        @Override
        public long size() {
            return 0;
        }
    };

    boolean enabled();

    /** The local copy of a key, or {@code null}. */
    CachedData get(String key);

    /** Taken before a read is sent, and given back to {@link #loaded}. */
    long epoch();

    /** Keeps what a read returned, unless a write was made since {@code epochAtSend}. */
    void loaded(String key, CachedData data, long epochAtSend);

    /** Drops a key (called before and after every write of it). */
    void invalidate(String key);

    /**
     * Drops the copy of a key memcached just said it does not store. Not a write: reads in flight
     * may still be kept (a copy this drops is one more miss at worst).
     */
    void absent(String key);

    /** Drops everything (flush). */
    void invalidateAll();

    /**
     * Drops everything and keeps no read for {@code nanos} from now: memcached empties itself only
     * when a delayed flush's delay is over, so a copy kept meanwhile would outlive the flush.
     */
    void invalidateAllFor(long nanos);

    /** Reads answered from a local copy so far. */
    long hitCount();

    /** Reads that found no local copy so far. */
    long missCount();

    /** About how many keys are held now. */
    long size();
}
