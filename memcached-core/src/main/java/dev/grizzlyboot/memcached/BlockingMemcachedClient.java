package dev.grizzlyboot.memcached;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.transcoder.Transcoder;

/**
 * The operations of a {@link MemcachedClient} as blocking calls: each waits for its answer and
 * throws the {@link MemcachedException} subclass the future failed with. A call returns within the
 * operation timeout plus {@value #GRACE_MILLIS} ms even when the client's sweeper thread is starved
 * on a loaded machine: the caller waits with its own deadline and then fails with a
 * {@link MemcachedTimeoutException} (a replicated {@code cas} is two steps and may take twice the
 * timeout). A single-key call made while no other blocking call waits spins for its answer for up
 * to {@link MemcachedClientBuilder#callerSpin(Duration)} before it parks. Thread-safe; get it from
 * {@link MemcachedClient#blocking()}.
 */
public final class BlockingMemcachedClient {

    /** How long past the operation timeout a caller waits for the sweeper to time its operation out. */
    static final long GRACE_MILLIS = 100;

    private final MemcachedClient client;
    private final long timeoutNanos;
    private final CallerSpin spin;

    BlockingMemcachedClient(MemcachedClient client, Duration operationTimeout, Duration callerSpin) {
        this.client = client;
        this.timeoutNanos = operationTimeout.toNanos();
        this.spin = new CallerSpin(callerSpin.toNanos());
    }

    /**
     * The asynchronous client behind this facade.
     *
     * @return the client whose futures these methods wait for
     */
    public MemcachedClient async() {
        return client;
    }

    /** The spin of this facade's callers (for tests). */
    CallerSpin spin() {
        return spin;
    }

    /**
     * See {@link MemcachedClient#get(String)}.
     *
     * @param key the key
     * @return the value, or {@code null} on a miss
     */
    public Object get(String key) {
        return await(client.get(key));
    }

    /**
     * See {@link MemcachedClient#getFresh(String)}.
     *
     * @param key the key
     * @return the value read from memcached, or {@code null} on a miss
     */
    public Object getFresh(String key) {
        return await(client.getFresh(key));
    }

    /**
     * See {@link MemcachedClient#get(String, Transcoder)}.
     *
     * @param <T> the type of the value
     * @param key the key
     * @param transcoder decodes the stored bytes and flags
     * @return the value, or {@code null} on a miss
     */
    public <T> T get(String key, Transcoder<T> transcoder) {
        return await(client.get(key, transcoder));
    }

    /**
     * See {@link MemcachedClient#gets(String)}.
     *
     * @param key the key
     * @return the value with its CAS token, or {@code null} on a miss
     */
    public CasValue<Object> gets(String key) {
        return await(client.gets(key));
    }

    /**
     * See {@link MemcachedClient#getAndTouch(String, Duration)}.
     *
     * @param key the key
     * @param expiry the new expiry; {@link Duration#ZERO} for never
     * @return the value, or {@code null} on a miss
     */
    public Object getAndTouch(String key, Duration expiry) {
        return await(client.getAndTouch(key, expiry));
    }

    /**
     * See {@link MemcachedClient#touch(String, Duration)}.
     *
     * @param key the key
     * @param expiry the new expiry; {@link Duration#ZERO} for never
     * @return {@code false} if the key is not stored
     */
    public boolean touch(String key, Duration expiry) {
        return await(client.touch(key, expiry));
    }

    /**
     * See {@link MemcachedClient#set(String, Object, Duration)}.
     *
     * @param key the key
     * @param value the value
     * @param expiry how long the value lives; {@link Duration#ZERO} for never
     */
    public void set(String key, Object value, Duration expiry) {
        await(client.set(key, value, expiry));
    }

    /**
     * See {@link MemcachedClient#set(String, Object, Duration, Transcoder)}.
     *
     * @param <T> the type of the value
     * @param key the key
     * @param value the value
     * @param expiry how long the value lives; {@link Duration#ZERO} for never
     * @param transcoder encodes the value into bytes and flags
     */
    public <T> void set(String key, T value, Duration expiry, Transcoder<? super T> transcoder) {
        await(client.set(key, value, expiry, transcoder));
    }

    /**
     * See {@link MemcachedClient#add(String, Object, Duration)}.
     *
     * @param key the key
     * @param value the value
     * @param expiry how long the value lives; {@link Duration#ZERO} for never
     * @return {@code false} if the key is already stored
     */
    public boolean add(String key, Object value, Duration expiry) {
        return await(client.add(key, value, expiry));
    }

    /**
     * See {@link MemcachedClient#replace(String, Object, Duration)}.
     *
     * @param key the key
     * @param value the value
     * @param expiry how long the value lives; {@link Duration#ZERO} for never
     * @return {@code false} if the key is not stored
     */
    public boolean replace(String key, Object value, Duration expiry) {
        return await(client.replace(key, value, expiry));
    }

    /**
     * See {@link MemcachedClient#append(String, Object)}.
     *
     * @param key the key
     * @param value what to append
     * @return {@code false} if the key is not stored
     */
    public boolean append(String key, Object value) {
        return await(client.append(key, value));
    }

    /**
     * See {@link MemcachedClient#prepend(String, Object)}.
     *
     * @param key the key
     * @param value what to prepend
     * @return {@code false} if the key is not stored
     */
    public boolean prepend(String key, Object value) {
        return await(client.prepend(key, value));
    }

    /**
     * See {@link MemcachedClient#cas(String, Object, long, Duration)}.
     *
     * @param key the key
     * @param value the new value
     * @param cas the token read with the value (not 0)
     * @param expiry how long the value lives; {@link Duration#ZERO} for never
     * @return whether the value was stored, and if not, why
     */
    public CasResult cas(String key, Object value, long cas, Duration expiry) {
        return await(client.cas(key, value, cas, expiry), 2, true);
    }

    /**
     * See {@link MemcachedClient#delete(String)}.
     *
     * @param key the key
     * @return {@code false} if the key was not stored
     */
    public boolean delete(String key) {
        return await(client.delete(key));
    }

    /**
     * See {@link MemcachedClient#incr(String, long)}.
     *
     * @param key the key
     * @param delta how much to add (not negative)
     * @return the counter's new value
     */
    public long incr(String key, long delta) {
        return await(client.incr(key, delta));
    }

    /**
     * See {@link MemcachedClient#incr(String, long, long, Duration)}.
     *
     * @param key the key
     * @param delta how much to add (not negative)
     * @param initial the value a new counter starts with (not negative)
     * @param expiry how long a new counter lives; {@link Duration#ZERO} for never
     * @return the counter's new value
     */
    public long incr(String key, long delta, long initial, Duration expiry) {
        return await(client.incr(key, delta, initial, expiry));
    }

    /**
     * See {@link MemcachedClient#decr(String, long)}.
     *
     * @param key the key
     * @param delta how much to subtract (not negative)
     * @return the counter's new value
     */
    public long decr(String key, long delta) {
        return await(client.decr(key, delta));
    }

    /**
     * See {@link MemcachedClient#decr(String, long, long, Duration)}.
     *
     * @param key the key
     * @param delta how much to subtract (not negative)
     * @param initial the value a new counter starts with (not negative)
     * @param expiry how long a new counter lives; {@link Duration#ZERO} for never
     * @return the counter's new value
     */
    public long decr(String key, long delta, long initial, Duration expiry) {
        return await(client.decr(key, delta, initial, expiry));
    }

    /**
     * See {@link MemcachedClient#getMulti(Collection)}.
     *
     * @param keys the keys
     * @return each key's outcome and value
     */
    public BulkResult<Object> getMulti(Collection<String> keys) {
        return awaitParked(client.getMulti(keys));
    }

    /**
     * See {@link MemcachedClient#getsMulti(Collection)}.
     *
     * @param keys the keys
     * @return each key's outcome, value and CAS token
     */
    public BulkResult<Object> getsMulti(Collection<String> keys) {
        return awaitParked(client.getsMulti(keys));
    }

    /**
     * See {@link MemcachedClient#setMulti(Map, Duration)}.
     *
     * @param values the values by key
     * @param expiry how long the values live; {@link Duration#ZERO} for never
     * @return each key's outcome
     */
    public BulkResult<Object> setMulti(Map<String, ?> values, Duration expiry) {
        return awaitParked(client.setMulti(values, expiry));
    }

    /**
     * See {@link MemcachedClient#deleteMulti(Collection)}.
     *
     * @param keys the keys
     * @return each key's outcome
     */
    public BulkResult<Object> deleteMulti(Collection<String> keys) {
        return awaitParked(client.deleteMulti(keys));
    }

    /**
     * See {@link MemcachedClient#casMulti(Map, Duration)}.
     *
     * @param values the new values and their tokens by key
     * @param expiry how long the values live; {@link Duration#ZERO} for never
     * @return each key's outcome
     */
    public BulkResult<Object> casMulti(Map<String, CasValue<?>> values, Duration expiry) {
        return awaitParked(client.casMulti(values, expiry));
    }

    /** See {@link MemcachedClient#noop()}. */
    public void noop() {
        awaitParked(client.noop());
    }

    /**
     * See {@link MemcachedClient#version()}.
     *
     * @return the version by server
     */
    public Map<ServerAddress, String> version() {
        return awaitParked(client.version());
    }

    /**
     * See {@link MemcachedClient#stats()}.
     *
     * @return the statistics by server, by name
     */
    public Map<ServerAddress, Map<String, String>> stats() {
        return awaitParked(client.stats());
    }

    /**
     * See {@link MemcachedClient#stats(String)}.
     *
     * @param group the group, such as {@code "settings"}
     * @return the statistics by server, by name
     */
    public Map<ServerAddress, Map<String, String>> stats(String group) {
        return awaitParked(client.stats(group));
    }

    /** See {@link MemcachedClient#flushAll()}. */
    public void flushAll() {
        awaitParked(client.flushAll());
    }

    /**
     * See {@link MemcachedClient#noopEach()}.
     *
     * @return each server's outcome, in list order
     */
    public ServerResults<Void> noopEach() {
        return awaitParked(client.noopEach());
    }

    /**
     * See {@link MemcachedClient#versionEach()}.
     *
     * @return each server's version, or why it did not answer, in list order
     */
    public ServerResults<String> versionEach() {
        return awaitParked(client.versionEach());
    }

    /**
     * See {@link MemcachedClient#statsEach(String)}.
     *
     * @param group the statistics group, {@code ""} for the general ones
     * @return each server's statistics, or why it did not answer, in list order
     */
    public ServerResults<Map<String, String>> statsEach(String group) {
        return awaitParked(client.statsEach(group));
    }

    /**
     * See {@link MemcachedClient#flushAllEach(Duration)}.
     *
     * @param delay how long until the items are invalidated; {@link Duration#ZERO} for now
     * @return each server's outcome, in list order
     */
    public ServerResults<Void> flushAllEach(Duration delay) {
        return awaitParked(client.flushAllEach(delay));
    }

    /**
     * Waits for {@code future} as this facade's single-key calls wait for theirs: spinning first
     * while no other blocking call waits ({@link MemcachedClientBuilder#callerSpin(Duration)}),
     * and giving up after {@code steps} operation timeouts plus {@value #GRACE_MILLIS} ms. For code
     * that composes single-key operations of {@link #async()} and answers its own caller
     * synchronously, as the Spring cache does.
     *
     * @param future a single-key operation of this client, or a few of them composed
     * @param steps  how many of its operations run one after another (at least 1)
     * @param <T>    the value's type
     * @return the future's value
     * @throws MemcachedException the failure the future completed with (or the
     *         {@link RuntimeException} it was), a {@link MemcachedTimeoutException} past the deadline
     */
    public <T> T await(CompletableFuture<T> future, int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("steps must be >= 1, was " + steps);
        }
        return await(future, steps, true);
    }

    private <T> T await(CompletableFuture<T> future) {
        return await(future, 1, true);
    }

    /** For calls whose answer takes longer than a spin is worth: many keys, or every server. */
    private <T> T awaitParked(CompletableFuture<T> future) {
        return await(future, 1, false);
    }

    private <T> T await(CompletableFuture<T> future, int steps, boolean maySpin) {
        long waitNanos = steps * timeoutNanos + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
        spin.enter(future, maySpin);
        try {
            return future.get(waitNanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new MemcachedException(String.valueOf(cause), cause);
        } catch (TimeoutException e) {
            // The operation stays with the sweeper, which fails it (and counts it against its server) when it runs.
            throw new MemcachedTimeoutException("no answer within " + TimeUnit.NANOSECONDS.toMillis(waitNanos)
                    + " ms (operation timeout plus " + GRACE_MILLIS + " ms): the client's sweeper thread is late");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MemcachedException("interrupted while waiting for memcached", e);
        } finally {
            spin.leave();
        }
    }
}
