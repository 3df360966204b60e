package dev.grizzlyboot.memcached;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerDetails;
import dev.grizzlyboot.memcached.cluster.ServerListChange;
import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.memcached.cluster.ServerStateListener;
import dev.grizzlyboot.memcached.internal.cluster.Cluster;
import dev.grizzlyboot.memcached.internal.cluster.ClusterSettings;
import dev.grizzlyboot.memcached.internal.connection.ClientTransport;
import dev.grizzlyboot.memcached.internal.connection.ConnectionPool;
import dev.grizzlyboot.memcached.internal.connection.ConnectionSecurity;
import dev.grizzlyboot.memcached.internal.connection.PoolSettings;
import dev.grizzlyboot.memcached.internal.connection.Sweeper;
import dev.grizzlyboot.memcached.internal.protocol.Opcode;
import dev.grizzlyboot.memcached.transcoder.Transcoder;

/**
 * An asynchronous memcached client speaking the binary protocol over pooled, pipelined Grizzly
 * connections. Every operation returns a {@link CompletableFuture} that completes with the
 * answer or exceptionally with a {@link MemcachedException} subclass (timeout, connection,
 * server status, invalid key, transcoding); {@link #blocking()} gives the same operations as
 * plain method calls.
 *
 * <p>Expected outcomes are values, not errors: a miss is {@code null}, {@code add} on an existing
 * key is {@code false}, a stale CAS token is {@link CasResult#EXISTS}. Keys are spread over the
 * servers by Ketama consistent hashing; a server that stops answering is marked failed and (with
 * failover, the default) leaves the ring until a health check finds it back. The server list can
 * change at run time ({@link #setServers}, {@link #prepareServers}) without disturbing requests
 * in flight.
 *
 * <p>Thread-safe; share one instance. Futures complete on the client's I/O threads, so callbacks
 * attached with {@code thenApply} and friends must not block (use the {@code ...Async} variants
 * for slow work).
 */
public final class MemcachedClient implements AutoCloseable {

    private final ClientTransport transport;
    private final Sweeper sweeper;
    private final Cluster cluster;
    private final Commands commands;
    private final Transcoder<Object> transcoder;
    private final NearCache near;
    private final BlockingMemcachedClient blocking;
    private final ClientMeters meters;

    MemcachedClient(List<ServerAddress> servers, Map<ServerAddress, Integer> weights, PoolSettings poolSettings,
            ClusterSettings clusterSettings, Duration operationTimeout, IoStrategy ioStrategy, int ioThreads,
            int workerThreads, int maxItemSize, Transcoder<Object> transcoder, NearCache near, ClientMeters meters,
            ConnectionSecurity security, Duration callerSpin, boolean textBulkReads) {
        this.meters = meters;
        this.near = near;
        this.transcoder = transcoder;
        // Room for a value of maxItemSize plus its key and extras; anything bigger is not memcached talking.
        this.transport = new ClientTransport(ioStrategy, ioThreads, workerThreads, maxItemSize + 64 * 1024, security);
        // A removed server's pending requests end within one operation timeout; the rest is slack.
        this.cluster = new Cluster(servers, weights, clusterSettings,
                (server, events) -> new ConnectionPool(server.host(), server.port(), transport, poolSettings, events,
                        textBulkReads),
                Keys::encode, operationTimeout.multipliedBy(2));
        cluster.maintain(System.nanoTime(), false);
        meters.bind(cluster, near);
        this.commands = new Commands(cluster, new Dispatch(cluster, operationTimeout.toNanos(), near, meters),
                new ValueEncoder(maxItemSize), near);
        // A timeout within one operation timeout after the client itself stalled is partly the stall's.
        this.sweeper = new Sweeper(Duration.ofMillis(Math.max(1, Math.min(10, operationTimeout.toMillis() / 10))),
                operationTimeout, cluster::maintain);
        this.blocking = new BlockingMemcachedClient(this, operationTimeout, callerSpin);
    }

    /**
     * A builder; {@code servers} is the only required setting.
     *
     * @return a new builder with the defaults
     */
    public static MemcachedClientBuilder builder() {
        return new MemcachedClientBuilder();
    }

    /**
     * Whether memcached takes {@code key} as it is: 1 to 250 bytes in UTF-8, no whitespace or
     * control characters, no unpaired surrogate. An operation on a key that is not fails with
     * {@link InvalidKeyException} before anything is sent (a failed future, thrown by the blocking
     * view, a key's {@code ERROR} outcome in a bulk call); this lets a caller that maps its own
     * keys (a cache, say) hash those instead. Does not allocate; safe from any thread.
     *
     * @param key a key, or null
     * @return false for null and for any key a call would refuse
     */
    public static boolean isValidKey(String key) {
        return Keys.isValid(key);
    }

    /**
     * The same client with blocking methods.
     *
     * @return the blocking view of this client (one instance, sharing this client's connections)
     */
    public BlockingMemcachedClient blocking() {
        return blocking;
    }

    /**
     * The servers in use, in list order (failed ones included).
     *
     * @return an unmodifiable snapshot of the server list
     */
    public List<ServerAddress> servers() {
        return cluster.servers();
    }

    /**
     * The server a key is read from now: its owner on the ring, or, while the owner is marked
     * failed, the server failover (or a replica) sends it to.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @return the server a read of {@code key} goes to
     * @throws InvalidKeyException        if no call would take the key (see {@link #isValidKey})
     * @throws ServerUnavailableException if no server can take the key
     */
    public ServerAddress serverFor(String key) {
        return cluster.serverFor(key);
    }

    /**
     * The server that owns a key by the server list alone, whatever their health.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @return the server that owns {@code key} on the full ring
     * @throws InvalidKeyException if no call would take the key (see {@link #isValidKey})
     */
    public ServerAddress ownerOf(String key) {
        return cluster.ownerOf(key);
    }

    /**
     * Each server's health (active or failed, since when, last error), in list order.
     *
     * @return a snapshot of each server's state
     */
    public List<ServerState> serverStates() {
        return cluster.states();
    }

    /**
     * Each server's health, Ketama weight and connection-pool figures, in list order.
     *
     * @return a snapshot of each server's details
     */
    public List<ServerDetails> serverDetails() {
        return cluster.details();
    }

    /**
     * How many values the near cache holds now (an estimate); 0 without a near cache.
     *
     * @return the estimated number of values held locally
     */
    public long nearCacheSize() {
        return near.size();
    }

    /**
     * Tells {@code listener} whenever a server is marked failed or comes back.
     *
     * @param listener called on the client's own threads, so it must be quick and must not block
     */
    public void addServerStateListener(ServerStateListener listener) {
        cluster.addListener(listener);
    }

    /**
     * Stops telling {@code listener} about server state changes.
     *
     * @param listener a listener added with {@link #addServerStateListener}
     */
    public void removeServerStateListener(ServerStateListener listener) {
        cluster.removeListener(listener);
    }

    // ---- server list changes --------------------------------------------------------------------

    /**
     * Replaces the server list in one atomic step. Servers kept keep their connections; removed
     * servers take no new requests and close once their pending requests finish; new servers get
     * new pools. Requests already sent are not disturbed.
     *
     * @param servers {@code host:port} strings (each may hold a comma-separated list)
     */
    public void setServers(List<String> servers) {
        cluster.setServers(ServerAddress.parseAll(servers));
    }

    /**
     * Builds the ring for a new server list and opens connections to its new servers without
     * using it; {@link ServerListChange#apply()} then switches to it in one step. This is how
     * coordinated changes let every client switch at the same moment.
     *
     * @param servers {@code host:port} strings (each may hold a comma-separated list)
     * @return the prepared change, to {@link ServerListChange#apply() apply} or
     *     {@link ServerListChange#discard() discard}
     */
    public ServerListChange prepareServers(List<String> servers) {
        return cluster.prepare(ServerAddress.parseAll(servers));
    }

    /**
     * Adds a server (weight 1); nothing happens if it is already in the list.
     *
     * @param server the server as {@code host:port}
     */
    public void addServer(String server) {
        addServer(server, 1);
    }

    /**
     * Adds a server with a Ketama weight (its share of keys is its weight over the total).
     *
     * @param server the server as {@code host:port}
     * @param weight its Ketama weight (at least 1)
     */
    public void addServer(String server, int weight) {
        cluster.addServer(ServerAddress.parse(server), weight);
    }

    /**
     * Removes a server: its keys move to the other servers; its connections close once their
     * pending requests finish.
     *
     * @param server the server as {@code host:port}, as it is in the list
     * @throws IllegalArgumentException if it is the last server
     */
    public void removeServer(String server) {
        cluster.removeServer(ServerAddress.parse(server));
    }

    // ---- reads ----------------------------------------------------------------------------------

    /**
     * The value of a key, or {@code null} if it is not stored.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @return a future that completes with the value, or {@code null} on a miss
     */
    public CompletableFuture<Object> get(String key) {
        return get(key, transcoder);
    }

    /**
     * The value of a key decoded by {@code valueTranscoder}, or {@code null} if it is not stored.
     * With a near cache, a local copy is used when there is one.
     *
     * @param <T> the type of the value
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param valueTranscoder decodes the stored bytes and flags
     * @return a future that completes with the value, or {@code null} on a miss
     */
    public <T> CompletableFuture<T> get(String key, Transcoder<T> valueTranscoder) {
        return commands.get(key, valueTranscoder);
    }

    /**
     * The value of a key read from memcached even when the near cache has a copy (the near cache
     * then keeps the fresh value, or drops its copy on a miss); without a near cache, the same as
     * {@link #get(String)}.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @return a future that completes with the value, or {@code null} on a miss
     */
    public CompletableFuture<Object> getFresh(String key) {
        return commands.getFresh(key, transcoder);
    }

    /**
     * The value of a key with its CAS token, or {@code null} if it is not stored.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @return a future that completes with the value and its token, or {@code null} on a miss
     */
    public CompletableFuture<CasValue<Object>> gets(String key) {
        return gets(key, transcoder);
    }

    /**
     * The value of a key, decoded by {@code valueTranscoder}, with its CAS token, or {@code null}.
     *
     * @param <T> the type of the value
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param valueTranscoder decodes the stored bytes and flags
     * @return a future that completes with the value and its token, or {@code null} on a miss
     */
    public <T> CompletableFuture<CasValue<T>> gets(String key, Transcoder<T> valueTranscoder) {
        return commands.gets(key, valueTranscoder);
    }

    /**
     * The value of a key, or {@code null}, and resets its expiry to {@code expiry} when found.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param expiry how long the value lives from now; {@link Duration#ZERO} for never
     * @return a future that completes with the value, or {@code null} on a miss
     */
    public CompletableFuture<Object> getAndTouch(String key, Duration expiry) {
        return commands.getAndTouch(key, expiry, transcoder);
    }

    /**
     * Resets the expiry of a key; {@code false} if the key is not stored.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param expiry how long the value lives from now; {@link Duration#ZERO} for never
     * @return a future that completes with {@code true} if the key was touched
     */
    public CompletableFuture<Boolean> touch(String key, Duration expiry) {
        return commands.touch(key, expiry);
    }

    // ---- writes ---------------------------------------------------------------------------------

    /**
     * Stores a value whatever is there. {@code expiry} {@link Duration#ZERO} means never;
     * more than 30 days is sent as an absolute time, as memcached requires.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param value the value, encoded by the client's transcoder
     * @param expiry how long the value lives; {@link Duration#ZERO} for never
     * @return a future that completes when the server has stored the value
     */
    public CompletableFuture<Void> set(String key, Object value, Duration expiry) {
        return set(key, value, expiry, transcoder);
    }

    /**
     * Stores a value encoded by {@code valueTranscoder}.
     *
     * @param <T> the type of the value
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param value the value
     * @param expiry how long the value lives; {@link Duration#ZERO} for never
     * @param valueTranscoder encodes the value into bytes and flags
     * @return a future that completes when the server has stored the value
     */
    public <T> CompletableFuture<Void> set(String key, T value, Duration expiry, Transcoder<? super T> valueTranscoder) {
        return commands.store("set", Opcode.SET, key, value, expiry, 0, valueTranscoder, Answers.okOrError());
    }

    /**
     * Stores a value only if the key is not stored yet; {@code false} if it already is.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param value the value, encoded by the client's transcoder
     * @param expiry how long the value lives; {@link Duration#ZERO} for never
     * @return a future that completes with {@code true} if the value was stored
     */
    public CompletableFuture<Boolean> add(String key, Object value, Duration expiry) {
        return commands.store("add", Opcode.ADD, key, value, expiry, 0, transcoder,
                Answers.falseOn(ServerStatus.KEY_EXISTS, ServerStatus.ITEM_NOT_STORED));
    }

    /**
     * Stores a value only if the key is already stored; {@code false} if it is not.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param value the value, encoded by the client's transcoder
     * @param expiry how long the value lives; {@link Duration#ZERO} for never
     * @return a future that completes with {@code true} if the value was replaced
     */
    public CompletableFuture<Boolean> replace(String key, Object value, Duration expiry) {
        return commands.store("replace", Opcode.REPLACE, key, value, expiry, 0, transcoder,
                Answers.falseOn(ServerStatus.KEY_NOT_FOUND, ServerStatus.ITEM_NOT_STORED));
    }

    /**
     * Appends bytes to a stored value (the value is encoded by the default transcoder, never
     * compressed, and the stored flags are kept, so append strings to strings); {@code false} if
     * the key is not stored.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param value what to append, encoded by the default transcoder
     * @return a future that completes with {@code true} if the bytes were appended
     */
    public CompletableFuture<Boolean> append(String key, Object value) {
        return commands.concat("append", Opcode.APPEND, key, value, transcoder);
    }

    /**
     * Prepends bytes to a stored value, as {@link #append} appends; {@code false} if the key is not stored.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param value what to prepend, encoded by the default transcoder
     * @return a future that completes with {@code true} if the bytes were prepended
     */
    public CompletableFuture<Boolean> prepend(String key, Object value) {
        return commands.concat("prepend", Opcode.PREPEND, key, value, transcoder);
    }

    /**
     * Stores a value only if the key still has the CAS token {@code cas} (from {@link #gets}).
     * With replicas, the owner's copy decides; replicas then get the stored value (their tokens differ).
     * A token of 0 fails with {@link IllegalArgumentException}: memcached would take it as "no
     * check" and store unconditionally, creating a missing key.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param value the new value, encoded by the client's transcoder
     * @param cas the token read with the value (not 0)
     * @param expiry how long the value lives; {@link Duration#ZERO} for never
     * @return a future that completes with {@link CasResult#STORED}, {@link CasResult#EXISTS} (token stale) or
     *     {@link CasResult#NOT_FOUND}
     */
    public CompletableFuture<CasResult> cas(String key, Object value, long cas, Duration expiry) {
        return commands.cas(key, value, cas, expiry, transcoder);
    }

    /**
     * Removes a key; {@code false} if it was not stored.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @return a future that completes with {@code true} if the key was removed
     */
    public CompletableFuture<Boolean> delete(String key) {
        return commands.delete(key);
    }

    /**
     * Adds {@code delta} to a counter and returns the new value; fails with
     * {@link KeyNotFoundException} if the key is not stored. Counters are unsigned 64-bit numbers:
     * a negative {@code delta} (or {@code initial}) fails with {@link IllegalArgumentException}
     * rather than being sent as a huge one; subtract with {@link #decr}. The value returned is the
     * counter's 64 bits, so one above {@link Long#MAX_VALUE} reads negative here
     * ({@link Long#toUnsignedString(long)} gives memcached's decimal).
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param delta how much to add (not negative)
     * @return a future that completes with the counter's new value
     */
    public CompletableFuture<Long> incr(String key, long delta) {
        return commands.counter("incr", Opcode.INCREMENT, key, delta, 0, null);
    }

    /**
     * Adds {@code delta} to a counter, creating it as {@code initial} (with {@code expiry}) if it is not stored.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param delta how much to add (not negative)
     * @param initial the value a new counter starts with (not negative)
     * @param expiry how long a new counter lives; {@link Duration#ZERO} for never
     * @return a future that completes with the counter's new value
     */
    public CompletableFuture<Long> incr(String key, long delta, long initial, Duration expiry) {
        return commands.counter("incr", Opcode.INCREMENT, key, delta, initial, Objects.requireNonNull(expiry, "expiry"));
    }

    /**
     * Subtracts {@code delta} from a counter (memcached stops at 0) and returns the new value;
     * fails with {@link KeyNotFoundException} if the key is not stored.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param delta how much to subtract (not negative)
     * @return a future that completes with the counter's new value
     */
    public CompletableFuture<Long> decr(String key, long delta) {
        return commands.counter("decr", Opcode.DECREMENT, key, delta, 0, null);
    }

    /**
     * Subtracts {@code delta} from a counter, creating it as {@code initial} if it is not stored.
     *
     * @param key the key (at most 250 bytes of UTF-8, no spaces or control characters)
     * @param delta how much to subtract (not negative)
     * @param initial the value a new counter starts with (not negative)
     * @param expiry how long a new counter lives; {@link Duration#ZERO} for never
     * @return a future that completes with the counter's new value
     */
    public CompletableFuture<Long> decr(String key, long delta, long initial, Duration expiry) {
        return commands.counter("decr", Opcode.DECREMENT, key, delta, initial, Objects.requireNonNull(expiry, "expiry"));
    }

    // ---- bulk -----------------------------------------------------------------------------------

    /**
     * Reads many keys: one write and one round trip per server. Misses are {@link Outcome#NOT_FOUND}.
     *
     * @param keys the keys, each as for {@link #get(String)}
     * @return a future that completes with each key's outcome and value
     */
    public CompletableFuture<BulkResult<Object>> getMulti(Collection<String> keys) {
        return getMulti(keys, transcoder);
    }

    /**
     * Reads many keys with a given transcoder; with a near cache, only keys without a local copy go to memcached.
     *
     * @param <T> the type of the values
     * @param keys the keys, each as for {@link #get(String)}
     * @param valueTranscoder decodes the stored bytes and flags
     * @return a future that completes with each key's outcome and value
     */
    public <T> CompletableFuture<BulkResult<T>> getMulti(Collection<String> keys, Transcoder<T> valueTranscoder) {
        return commands.getMulti(keys, valueTranscoder);
    }

    /**
     * Reads many keys with their CAS tokens ({@link KeyResult#cas()}).
     *
     * @param keys the keys, each as for {@link #get(String)}
     * @return a future that completes with each key's outcome, value and token
     */
    public CompletableFuture<BulkResult<Object>> getsMulti(Collection<String> keys) {
        return commands.getsMulti(keys, transcoder);
    }

    /**
     * Stores many values with one expiry: one write and one round trip per server.
     *
     * @param values the values by key, encoded by the client's transcoder
     * @param expiry how long the values live; {@link Duration#ZERO} for never
     * @return a future that completes with each key's outcome
     */
    public CompletableFuture<BulkResult<Object>> setMulti(Map<String, ?> values, Duration expiry) {
        return commands.setMulti(values, expiry, transcoder);
    }

    /**
     * Removes many keys; keys that were not stored are {@link Outcome#NOT_FOUND}.
     *
     * @param keys the keys, each as for {@link #delete(String)}
     * @return a future that completes with each key's outcome
     */
    public CompletableFuture<BulkResult<Object>> deleteMulti(Collection<String> keys) {
        return commands.deleteMulti(keys);
    }

    /**
     * Compare-and-swaps many keys, each with the token in its {@link CasValue}: each key is
     * {@link Outcome#STORED}, {@link Outcome#EXISTS} (token stale) or {@link Outcome#NOT_FOUND}.
     * A token of 0 fails the whole call with {@link IllegalArgumentException}, as in {@link #cas}.
     *
     * @param values the new values and their tokens by key
     * @param expiry how long the values live; {@link Duration#ZERO} for never
     * @return a future that completes with each key's outcome
     */
    public CompletableFuture<BulkResult<Object>> casMulti(Map<String, CasValue<?>> values, Duration expiry) {
        return commands.casMulti(values, expiry, transcoder);
    }

    // ---- servers --------------------------------------------------------------------------------

    /**
     * Round trip to every server; completes when all answered, or fails with the first server's
     * error. {@link #noopEach()} reports each server instead.
     *
     * @return a future that completes when every server has answered
     */
    public CompletableFuture<Void> noop() {
        return noopEach().thenApply(results -> {
            results.valuesOrThrow();
            return null;
        });
    }

    /**
     * Round trip to every server, each server's outcome reported on its own.
     *
     * @return a future that completes with each server's outcome, never exceptionally for one server's failure
     */
    public CompletableFuture<ServerResults<Void>> noopEach() {
        return commands.noopEach();
    }

    /**
     * Each server's version; fails with the first server's error if one does not answer
     * ({@link #versionEach()} does not).
     *
     * @return a future that completes with the version by server
     */
    public CompletableFuture<Map<ServerAddress, String>> version() {
        return versionEach().thenApply(ServerResults::valuesOrThrow);
    }

    /**
     * Each server's version, or why it did not answer.
     *
     * @return a future that completes with each server's version or error
     */
    public CompletableFuture<ServerResults<String>> versionEach() {
        return commands.versionEach();
    }

    /**
     * Each server's general statistics; fails with the first server's error if one does not answer.
     *
     * @return a future that completes with the statistics by server, by name
     */
    public CompletableFuture<Map<ServerAddress, Map<String, String>>> stats() {
        return stats("");
    }

    /**
     * Each server's statistics of one group, such as {@code "settings"}, {@code "items"} or {@code "slabs"}.
     *
     * @param group the group, as the text protocol's {@code stats <group>} takes it
     * @return a future that completes with the statistics by server, by name
     */
    public CompletableFuture<Map<ServerAddress, Map<String, String>>> stats(String group) {
        return statsEach(group).thenApply(ServerResults::valuesOrThrow);
    }

    /**
     * Each server's statistics of one group ({@code ""} for the general ones), or why it did not
     * answer: a server that is down does not hide the others' figures.
     *
     * @param group the group, as the text protocol's {@code stats <group>} takes it; {@code ""} for the general ones
     * @return a future that completes with each server's statistics or error
     */
    public CompletableFuture<ServerResults<Map<String, String>>> statsEach(String group) {
        return commands.statsEach(group);
    }

    /**
     * Invalidates every item on every server.
     *
     * @return a future that completes when every server has flushed
     */
    public CompletableFuture<Void> flushAll() {
        return flushAll(Duration.ZERO);
    }

    /**
     * Invalidates every item on every server after {@code delay}; fails with the first server's
     * error if one does not answer (the others are flushed all the same).
     *
     * @param delay how long the servers wait before flushing; {@link Duration#ZERO} for now
     * @return a future that completes when every server has taken the flush
     */
    public CompletableFuture<Void> flushAll(Duration delay) {
        return flushAllEach(delay).thenApply(results -> {
            results.valuesOrThrow();
            return null;
        });
    }

    /**
     * Invalidates every item on every server after {@code delay}, each server's outcome reported on its own.
     *
     * @param delay how long the servers wait before flushing; {@link Duration#ZERO} for now
     * @return a future that completes with each server's outcome
     */
    public CompletableFuture<ServerResults<Void>> flushAllEach(Duration delay) {
        return commands.flushAllEach(delay);
    }

    /** Closes every connection (failing operations still in flight) and stops the client's threads. */
    @Override
    public void close() {
        meters.close();
        sweeper.close();
        cluster.close();
        transport.close();
    }
}
