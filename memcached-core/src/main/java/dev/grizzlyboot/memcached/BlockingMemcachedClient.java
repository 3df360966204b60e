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
 * timeout). Thread-safe; get it from {@link MemcachedClient#blocking()}.
 */
public final class BlockingMemcachedClient {

    /** How long past the operation timeout a caller waits for the sweeper to time its operation out. */
    static final long GRACE_MILLIS = 100;

    private final MemcachedClient client;
    private final long deadlineNanos;

    BlockingMemcachedClient(MemcachedClient client, Duration operationTimeout) {
        this.client = client;
        this.deadlineNanos = operationTimeout.toNanos() + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
    }

    /** The asynchronous client behind this facade. */
    public MemcachedClient async() {
        return client;
    }

    /** See {@link MemcachedClient#get(String)}. */
    public Object get(String key) {
        return await(client.get(key));
    }

    /** See {@link MemcachedClient#getFresh(String)}. */
    public Object getFresh(String key) {
        return await(client.getFresh(key));
    }

    /** See {@link MemcachedClient#get(String, Transcoder)}. */
    public <T> T get(String key, Transcoder<T> transcoder) {
        return await(client.get(key, transcoder));
    }

    /** See {@link MemcachedClient#gets(String)}. */
    public CasValue<Object> gets(String key) {
        return await(client.gets(key));
    }

    /** See {@link MemcachedClient#getAndTouch(String, Duration)}. */
    public Object getAndTouch(String key, Duration expiry) {
        return await(client.getAndTouch(key, expiry));
    }

    /** See {@link MemcachedClient#touch(String, Duration)}. */
    public boolean touch(String key, Duration expiry) {
        return await(client.touch(key, expiry));
    }

    /** See {@link MemcachedClient#set(String, Object, Duration)}. */
    public void set(String key, Object value, Duration expiry) {
        await(client.set(key, value, expiry));
    }

    /** See {@link MemcachedClient#set(String, Object, Duration, Transcoder)}. */
    public <T> void set(String key, T value, Duration expiry, Transcoder<? super T> transcoder) {
        await(client.set(key, value, expiry, transcoder));
    }

    /** See {@link MemcachedClient#add(String, Object, Duration)}. */
    public boolean add(String key, Object value, Duration expiry) {
        return await(client.add(key, value, expiry));
    }

    /** See {@link MemcachedClient#replace(String, Object, Duration)}. */
    public boolean replace(String key, Object value, Duration expiry) {
        return await(client.replace(key, value, expiry));
    }

    /** See {@link MemcachedClient#append(String, Object)}. */
    public boolean append(String key, Object value) {
        return await(client.append(key, value));
    }

    /** See {@link MemcachedClient#prepend(String, Object)}. */
    public boolean prepend(String key, Object value) {
        return await(client.prepend(key, value));
    }

    /** See {@link MemcachedClient#cas(String, Object, long, Duration)}. */
    public CasResult cas(String key, Object value, long cas, Duration expiry) {
        return await(client.cas(key, value, cas, expiry), 2);
    }

    /** See {@link MemcachedClient#delete(String)}. */
    public boolean delete(String key) {
        return await(client.delete(key));
    }

    /** See {@link MemcachedClient#incr(String, long)}. */
    public long incr(String key, long delta) {
        return await(client.incr(key, delta));
    }

    /** See {@link MemcachedClient#incr(String, long, long, Duration)}. */
    public long incr(String key, long delta, long initial, Duration expiry) {
        return await(client.incr(key, delta, initial, expiry));
    }

    /** See {@link MemcachedClient#decr(String, long)}. */
    public long decr(String key, long delta) {
        return await(client.decr(key, delta));
    }

    /** See {@link MemcachedClient#decr(String, long, long, Duration)}. */
    public long decr(String key, long delta, long initial, Duration expiry) {
        return await(client.decr(key, delta, initial, expiry));
    }

    /** See {@link MemcachedClient#getMulti(Collection)}. */
    public BulkResult<Object> getMulti(Collection<String> keys) {
        return await(client.getMulti(keys));
    }

    /** See {@link MemcachedClient#getsMulti(Collection)}. */
    public BulkResult<Object> getsMulti(Collection<String> keys) {
        return await(client.getsMulti(keys));
    }

    /** See {@link MemcachedClient#setMulti(Map, Duration)}. */
    public BulkResult<Object> setMulti(Map<String, ?> values, Duration expiry) {
        return await(client.setMulti(values, expiry));
    }

    /** See {@link MemcachedClient#deleteMulti(Collection)}. */
    public BulkResult<Object> deleteMulti(Collection<String> keys) {
        return await(client.deleteMulti(keys));
    }

    /** See {@link MemcachedClient#casMulti(Map, Duration)}. */
    public BulkResult<Object> casMulti(Map<String, CasValue<?>> values, Duration expiry) {
        return await(client.casMulti(values, expiry));
    }

    /** See {@link MemcachedClient#noop()}. */
    public void noop() {
        await(client.noop());
    }

    /** See {@link MemcachedClient#version()}. */
    public Map<ServerAddress, String> version() {
        return await(client.version());
    }

    /** See {@link MemcachedClient#stats()}. */
    public Map<ServerAddress, Map<String, String>> stats() {
        return await(client.stats());
    }

    /** See {@link MemcachedClient#stats(String)}. */
    public Map<ServerAddress, Map<String, String>> stats(String group) {
        return await(client.stats(group));
    }

    /** See {@link MemcachedClient#flushAll()}. */
    public void flushAll() {
        await(client.flushAll());
    }

    /** See {@link MemcachedClient#noopEach()}. */
    public ServerResults<Void> noopEach() {
        return await(client.noopEach());
    }

    /** See {@link MemcachedClient#versionEach()}. */
    public ServerResults<String> versionEach() {
        return await(client.versionEach());
    }

    /** See {@link MemcachedClient#statsEach(String)}. */
    public ServerResults<Map<String, String>> statsEach(String group) {
        return await(client.statsEach(group));
    }

    /** See {@link MemcachedClient#flushAllEach(Duration)}. */
    public ServerResults<Void> flushAllEach(Duration delay) {
        return await(client.flushAllEach(delay));
    }

    private <T> T await(CompletableFuture<T> future) {
        return await(future, 1);
    }

    private <T> T await(CompletableFuture<T> future, int steps) {
        long waitNanos = deadlineNanos + (steps - 1) * (deadlineNanos - TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS));
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
        }
    }
}
