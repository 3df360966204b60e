package dev.grizzlyboot.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.grizzlyboot.memcached.Dispatch.Routing;
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
import dev.grizzlyboot.memcached.internal.protocol.Request;
import dev.grizzlyboot.memcached.internal.protocol.ResponseHandler;
import dev.grizzlyboot.memcached.internal.protocol.StatsOperation;
import dev.grizzlyboot.memcached.transcoder.CachedData;
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

    /** The expiration that tells INCREMENT/DECREMENT not to create a missing key. */
    private static final int NO_AUTO_CREATE = 0xFFFFFFFF;

    private final ClientTransport transport;
    private final Sweeper sweeper;
    private final Cluster cluster;
    private final Dispatch dispatch;
    private final ValueEncoder values;
    private final Transcoder<Object> transcoder;
    private final NearCache near;
    private final BlockingMemcachedClient blocking;
    private final ClientMeters meters;

    MemcachedClient(List<ServerAddress> servers, Map<ServerAddress, Integer> weights, PoolSettings poolSettings,
            ClusterSettings clusterSettings, Duration operationTimeout, IoStrategy ioStrategy, int ioThreads,
            int workerThreads, int maxItemSize, Transcoder<Object> transcoder, NearCache near, ClientMeters meters,
            ConnectionSecurity security) {
        this.meters = meters;
        this.near = near;
        this.values = new ValueEncoder(maxItemSize);
        this.transcoder = transcoder;
        // Room for a value of maxItemSize plus its key and extras; anything bigger is not memcached talking.
        this.transport = new ClientTransport(ioStrategy, ioThreads, workerThreads, maxItemSize + 64 * 1024, security);
        // A removed server's pending requests end within one operation timeout; the rest is slack.
        this.cluster = new Cluster(servers, weights, clusterSettings,
                (server, events) -> new ConnectionPool(server.host(), server.port(), transport, poolSettings, events),
                operationTimeout.multipliedBy(2));
        cluster.maintain(System.nanoTime());
        meters.bind(cluster, near);
        this.dispatch = new Dispatch(cluster, operationTimeout.toNanos(), near, meters);
        this.sweeper = new Sweeper(Duration.ofMillis(Math.max(1, Math.min(10, operationTimeout.toMillis() / 10))),
                cluster::maintain);
        this.blocking = new BlockingMemcachedClient(this, operationTimeout);
    }

    /** A builder; {@code servers} is the only required setting. */
    public static MemcachedClientBuilder builder() {
        return new MemcachedClientBuilder();
    }

    /** The same client with blocking methods. */
    public BlockingMemcachedClient blocking() {
        return blocking;
    }

    /** The servers in use, in list order (failed ones included). */
    public List<ServerAddress> servers() {
        return cluster.servers();
    }

    /**
     * The server a key is read from now: its owner on the ring, or, while the owner is marked
     * failed, the server failover (or a replica) sends it to.
     *
     * @throws ServerUnavailableException if no server can take the key
     */
    public ServerAddress serverFor(String key) {
        return cluster.serverFor(key);
    }

    /** The server that owns a key by the server list alone, whatever their health. */
    public ServerAddress ownerOf(String key) {
        return cluster.ownerOf(key);
    }

    /** Each server's health (active or failed, since when, last error), in list order. */
    public List<ServerState> serverStates() {
        return cluster.states();
    }

    /** Each server's health, Ketama weight and connection-pool figures, in list order. */
    public List<ServerDetails> serverDetails() {
        return cluster.details();
    }

    /** How many values the near cache holds now (an estimate); 0 without a near cache. */
    public long nearCacheSize() {
        return near.size();
    }

    /** Tells {@code listener} whenever a server is marked failed or comes back. */
    public void addServerStateListener(ServerStateListener listener) {
        cluster.addListener(listener);
    }

    /** Stops telling {@code listener} about server state changes. */
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
     */
    public ServerListChange prepareServers(List<String> servers) {
        return cluster.prepare(ServerAddress.parseAll(servers));
    }

    /** Adds a server (weight 1); nothing happens if it is already in the list. */
    public void addServer(String server) {
        addServer(server, 1);
    }

    /** Adds a server with a Ketama weight (its share of keys is its weight over the total). */
    public void addServer(String server, int weight) {
        cluster.addServer(ServerAddress.parse(server), weight);
    }

    /**
     * Removes a server: its keys move to the other servers; its connections close once their
     * pending requests finish.
     *
     * @throws IllegalArgumentException if it is the last server
     */
    public void removeServer(String server) {
        cluster.removeServer(ServerAddress.parse(server));
    }

    // ---- reads ----------------------------------------------------------------------------------

    /** The value of a key, or {@code null} if it is not stored. */
    public CompletableFuture<Object> get(String key) {
        return get(key, transcoder);
    }

    /**
     * The value of a key decoded by {@code valueTranscoder}, or {@code null} if it is not stored.
     * With a near cache, a local copy is used when there is one.
     */
    public <T> CompletableFuture<T> get(String key, Transcoder<T> valueTranscoder) {
        CachedData local = key == null ? null : near.get(key);
        if (local != null) {
            try {
                return CompletableFuture.completedFuture(valueTranscoder.decode(local));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(new TranscoderException("get '" + key + "': could not decode the near-cache copy", e));
            }
        }
        return getFresh(key, valueTranscoder);
    }

    /**
     * The value of a key read from memcached even when the near cache has a copy (the near cache
     * then keeps the fresh value); without a near cache, the same as {@link #get(String)}.
     */
    public CompletableFuture<Object> getFresh(String key) {
        return getFresh(key, transcoder);
    }

    private <T> CompletableFuture<T> getFresh(String key, Transcoder<T> valueTranscoder) {
        return dispatch.single("get", key, k -> Request.keyed(Opcode.GET, k),
                Answers.valueOrNull(valueTranscoder, near, key, near.epoch()));
    }

    /** The value of a key with its CAS token, or {@code null} if it is not stored. */
    public CompletableFuture<CasValue<Object>> gets(String key) {
        return gets(key, transcoder);
    }

    /** The value of a key, decoded by {@code valueTranscoder}, with its CAS token, or {@code null}. */
    public <T> CompletableFuture<CasValue<T>> gets(String key, Transcoder<T> valueTranscoder) {
        return dispatch.single("gets", key, k -> Request.keyed(Opcode.GET, k), Answers.casValueOrNull(valueTranscoder));
    }

    /** The value of a key, or {@code null}, and resets its expiry to {@code expiry} when found. */
    public CompletableFuture<Object> getAndTouch(String key, Duration expiry) {
        return reported(() -> {
            int wireExpiry = Expiry.toWire(expiry);
            return dispatch.single("getAndTouch", key, k -> Request.touch(Opcode.GAT, k, wireExpiry),
                    Answers.valueOrNull(transcoder, near, null, 0));
        });
    }

    /** Resets the expiry of a key; {@code false} if the key is not stored. */
    public CompletableFuture<Boolean> touch(String key, Duration expiry) {
        return reported(() -> {
            int wireExpiry = Expiry.toWire(expiry);
            return dispatch.write("touch", key, k -> Request.touch(Opcode.TOUCH, k, wireExpiry),
                    Answers.falseOn(ServerStatus.KEY_NOT_FOUND));
        });
    }

    // ---- writes ---------------------------------------------------------------------------------

    /**
     * Stores a value whatever is there. {@code expiry} {@link Duration#ZERO} means never;
     * more than 30 days is sent as an absolute time, as memcached requires.
     */
    public CompletableFuture<Void> set(String key, Object value, Duration expiry) {
        return set(key, value, expiry, transcoder);
    }

    /** Stores a value encoded by {@code valueTranscoder}. */
    public <T> CompletableFuture<Void> set(String key, T value, Duration expiry, Transcoder<? super T> valueTranscoder) {
        return store("set", Opcode.SET, key, value, expiry, 0, valueTranscoder, Answers.okOrError());
    }

    /** Stores a value only if the key is not stored yet; {@code false} if it already is. */
    public CompletableFuture<Boolean> add(String key, Object value, Duration expiry) {
        return store("add", Opcode.ADD, key, value, expiry, 0, transcoder,
                Answers.falseOn(ServerStatus.KEY_EXISTS, ServerStatus.ITEM_NOT_STORED));
    }

    /** Stores a value only if the key is already stored; {@code false} if it is not. */
    public CompletableFuture<Boolean> replace(String key, Object value, Duration expiry) {
        return store("replace", Opcode.REPLACE, key, value, expiry, 0, transcoder,
                Answers.falseOn(ServerStatus.KEY_NOT_FOUND, ServerStatus.ITEM_NOT_STORED));
    }

    /**
     * Appends bytes to a stored value (the value is encoded by the default transcoder and the
     * stored flags are kept, so append strings to strings); {@code false} if the key is not stored.
     */
    public CompletableFuture<Boolean> append(String key, Object value) {
        return concat("append", Opcode.APPEND, key, value);
    }

    /** Prepends bytes to a stored value, as {@link #append} appends; {@code false} if the key is not stored. */
    public CompletableFuture<Boolean> prepend(String key, Object value) {
        return concat("prepend", Opcode.PREPEND, key, value);
    }

    /**
     * Stores a value only if the key still has the CAS token {@code cas} (from {@link #gets}).
     * With replicas, the owner's copy decides; replicas then get the stored value (their tokens differ).
     * A token of 0 fails with {@link IllegalArgumentException}: memcached would take it as "no
     * check" and store unconditionally, creating a missing key.
     */
    public CompletableFuture<CasResult> cas(String key, Object value, long cas, Duration expiry) {
        if (cas == 0) {
            return CompletableFuture.failedFuture(zeroCasToken(key));
        }
        CompletableFuture<CasResult> owner = store("cas", Opcode.SET, key, value, expiry, cas, transcoder, Answers.casResult());
        if (!cluster.replicated()) {
            return owner;
        }
        return owner.thenCompose(result -> result != CasResult.STORED ? CompletableFuture.completedFuture(result)
                : dispatch.copyToReplicas("cas", key,
                        k -> values.storeRequest(Opcode.SET, k, value, Expiry.toWire(expiry), 0, transcoder))
                        .thenApply(done -> result));
    }

    /** Removes a key; {@code false} if it was not stored. */
    public CompletableFuture<Boolean> delete(String key) {
        return dispatch.write("delete", key, k -> Request.keyed(Opcode.DELETE, k), Answers.falseOn(ServerStatus.KEY_NOT_FOUND));
    }

    /**
     * Adds {@code delta} to a counter and returns the new value; fails with
     * {@link KeyNotFoundException} if the key is not stored. Counters are unsigned 64-bit numbers:
     * a negative {@code delta} (or {@code initial}) fails with {@link IllegalArgumentException}
     * rather than being sent as a huge one; subtract with {@link #decr}.
     */
    public CompletableFuture<Long> incr(String key, long delta) {
        return counter("incr", Opcode.INCREMENT, key, delta, 0, NO_AUTO_CREATE);
    }

    /** Adds {@code delta} to a counter, creating it as {@code initial} (with {@code expiry}) if it is not stored. */
    public CompletableFuture<Long> incr(String key, long delta, long initial, Duration expiry) {
        return reported(() -> counter("incr", Opcode.INCREMENT, key, delta, initial, Expiry.toWire(expiry)));
    }

    /**
     * Subtracts {@code delta} from a counter (memcached stops at 0) and returns the new value;
     * fails with {@link KeyNotFoundException} if the key is not stored.
     */
    public CompletableFuture<Long> decr(String key, long delta) {
        return counter("decr", Opcode.DECREMENT, key, delta, 0, NO_AUTO_CREATE);
    }

    /** Subtracts {@code delta} from a counter, creating it as {@code initial} if it is not stored. */
    public CompletableFuture<Long> decr(String key, long delta, long initial, Duration expiry) {
        return reported(() -> counter("decr", Opcode.DECREMENT, key, delta, initial, Expiry.toWire(expiry)));
    }

    // ---- bulk -----------------------------------------------------------------------------------

    /** Reads many keys: one write and one round trip per server. Misses are {@link Outcome#NOT_FOUND}. */
    public CompletableFuture<BulkResult<Object>> getMulti(Collection<String> keys) {
        return getMulti(keys, transcoder);
    }

    /** Reads many keys with a given transcoder; with a near cache, only keys without a local copy go to memcached. */
    public <T> CompletableFuture<BulkResult<T>> getMulti(Collection<String> keys, Transcoder<T> valueTranscoder) {
        return reported(() -> getMultiThroughNear(Objects.requireNonNull(keys, "keys"), valueTranscoder));
    }

    private <T> CompletableFuture<BulkResult<T>> getMultiThroughNear(Collection<String> keys, Transcoder<T> valueTranscoder) {
        if (!near.enabled()) {
            return dispatch.bulk("getMulti", keys, (key, bytes) -> Request.keyed(Opcode.GETQ, bytes),
                    Answers.foundOrError(valueTranscoder, near, 0), Outcome.NOT_FOUND, Routing.READ);
        }
        Map<String, KeyResult<T>> local = new LinkedHashMap<>();
        List<String> remote = new ArrayList<>();
        for (String key : new LinkedHashSet<>(keys)) {
            CachedData copy = key == null ? null : near.get(key);
            if (copy == null) {
                remote.add(key);
            } else {
                local.put(key, new KeyResult<>(Outcome.FOUND, valueTranscoder.decode(copy), 0, null));
            }
        }
        return dispatch.bulk("getMulti", remote, (key, bytes) -> Request.keyed(Opcode.GETQ, bytes),
                Answers.foundOrError(valueTranscoder, near, near.epoch()), Outcome.NOT_FOUND, Routing.READ).thenApply(fetched -> {
            Map<String, KeyResult<T>> ordered = new LinkedHashMap<>();
            for (String key : new LinkedHashSet<>(keys)) {
                KeyResult<T> result = local.get(key);
                ordered.put(key, result != null ? result : fetched.get(key));
            }
            return new BulkResult<>(ordered);
        });
    }

    /** Reads many keys with their CAS tokens ({@link KeyResult#cas()}). */
    public CompletableFuture<BulkResult<Object>> getsMulti(Collection<String> keys) {
        return reported(() -> dispatch.bulk("getsMulti", Objects.requireNonNull(keys, "keys"),
                (key, bytes) -> Request.keyed(Opcode.GETQ, bytes), Answers.foundWithCasOrError(transcoder), Outcome.NOT_FOUND,
                Routing.READ));
    }

    /** Stores many values with one expiry: one write and one round trip per server. */
    public CompletableFuture<BulkResult<Object>> setMulti(Map<String, ?> values, Duration expiry) {
        return reported(() -> {
            int wireExpiry = Expiry.toWire(expiry);
            return dispatch.bulk("setMulti", values.keySet(),
                    (key, bytes) -> this.values.storeRequest(Opcode.SETQ, bytes, values.get(key), wireExpiry, 0, transcoder),
                    Answers::errorResult, Outcome.STORED, Routing.REPLICATED_WRITE);
        });
    }

    /** Removes many keys; keys that were not stored are {@link Outcome#NOT_FOUND}. */
    public CompletableFuture<BulkResult<Object>> deleteMulti(Collection<String> keys) {
        return reported(() -> dispatch.bulk("deleteMulti", Objects.requireNonNull(keys, "keys"),
                (key, bytes) -> Request.keyed(Opcode.DELETEQ, bytes), Answers::errorResult, Outcome.DELETED,
                Routing.REPLICATED_WRITE));
    }

    /**
     * Compare-and-swaps many keys, each with the token in its {@link CasValue}: each key is
     * {@link Outcome#STORED}, {@link Outcome#EXISTS} (token stale) or {@link Outcome#NOT_FOUND}.
     * A token of 0 fails the whole call with {@link IllegalArgumentException}, as in {@link #cas}.
     */
    public CompletableFuture<BulkResult<Object>> casMulti(Map<String, CasValue<?>> values, Duration expiry) {
        return reported(() -> {
            int wireExpiry = Expiry.toWire(expiry);
            values.forEach((key, casValue) -> {
                if (casValue.cas() == 0) {
                    throw zeroCasToken(key);
                }
            });
            return dispatch.bulk("casMulti", values.keySet(), (key, bytes) -> {
                CasValue<?> casValue = values.get(key);
                return this.values.storeRequest(Opcode.SETQ, bytes, casValue.value(), wireExpiry, casValue.cas(), transcoder);
            }, Answers::errorResult, Outcome.STORED, Routing.OWNER_WRITE);
        });
    }

    // ---- servers --------------------------------------------------------------------------------

    /**
     * Round trip to every server; completes when all answered, or fails with the first server's
     * error. {@link #noopEach()} reports each server instead.
     */
    public CompletableFuture<Void> noop() {
        return noopEach().thenApply(results -> {
            results.valuesOrThrow();
            return null;
        });
    }

    /** Round trip to every server, each server's outcome reported on its own. */
    public CompletableFuture<ServerResults<Void>> noopEach() {
        return dispatch.everyServer("noop", () -> Request.of(Opcode.NOOP), Answers.<Void>okOrError());
    }

    /** Each server's version; fails with the first server's error if one does not answer ({@link #versionEach()} does not). */
    public CompletableFuture<Map<ServerAddress, String>> version() {
        return versionEach().thenApply(ServerResults::valuesOrThrow);
    }

    /** Each server's version, or why it did not answer. */
    public CompletableFuture<ServerResults<String>> versionEach() {
        return dispatch.everyServer("version", () -> Request.of(Opcode.VERSION), Answers.versionText());
    }

    /** Each server's general statistics; fails with the first server's error if one does not answer. */
    public CompletableFuture<Map<ServerAddress, Map<String, String>>> stats() {
        return stats("");
    }

    /** Each server's statistics of one group, such as {@code "settings"}, {@code "items"} or {@code "slabs"}. */
    public CompletableFuture<Map<ServerAddress, Map<String, String>>> stats(String group) {
        return statsEach(group).thenApply(ServerResults::valuesOrThrow);
    }

    /**
     * Each server's statistics of one group ({@code ""} for the general ones), or why it did not
     * answer: a server that is down does not hide the others' figures.
     */
    public CompletableFuture<ServerResults<Map<String, String>>> statsEach(String group) {
        return reported(() -> {
            Objects.requireNonNull(group, "group (\"\" for the general statistics)");
            return dispatch.everyServer(() -> new StatsOperation(group, dispatch.timeoutNanos()));
        });
    }

    /** Invalidates every item on every server. */
    public CompletableFuture<Void> flushAll() {
        return flushAll(Duration.ZERO);
    }

    /**
     * Invalidates every item on every server after {@code delay}; fails with the first server's
     * error if one does not answer (the others are flushed all the same).
     */
    public CompletableFuture<Void> flushAll(Duration delay) {
        return flushAllEach(delay).thenApply(results -> {
            results.valuesOrThrow();
            return null;
        });
    }

    /** Invalidates every item on every server after {@code delay}, each server's outcome reported on its own. */
    public CompletableFuture<ServerResults<Void>> flushAllEach(Duration delay) {
        return reported(() -> {
            int wireDelay = Expiry.toWire(delay);
            near.invalidateAll();
            return dispatch.everyServer("flushAll", () -> Request.flush(wireDelay), Answers.<Void>okOrError())
                    .whenComplete((results, error) -> near.invalidateAll());
        });
    }

    /** Closes every connection (failing operations still in flight) and stops the client's threads. */
    @Override
    public void close() {
        meters.close();
        sweeper.close();
        cluster.close();
        transport.close();
    }

    // ---- request building -----------------------------------------------------------------------

    private <T, R> CompletableFuture<R> store(String name, Opcode opcode, String key, T value, Duration expiry, long cas,
            Transcoder<? super T> valueTranscoder, ResponseHandler<R> handler) {
        return reported(() -> {
            int wireExpiry = Expiry.toWire(expiry);
            Function<byte[], Request> request = k -> values.storeRequest(opcode, k, value, wireExpiry, cas, valueTranscoder);
            // A CAS goes to the owner only (tokens differ per server); cas() copies a stored value to replicas.
            return cas == 0 ? dispatch.write(name, key, request, handler) : dispatch.ownerWrite(name, key, request, handler);
        });
    }

    private CompletableFuture<Boolean> concat(String name, Opcode opcode, String key, Object value) {
        return dispatch.write(name, key, k -> Request.concat(opcode, k, values.encode(transcoder, value).bytes()),
                Answers.falseOn(ServerStatus.ITEM_NOT_STORED, ServerStatus.KEY_NOT_FOUND));
    }

    private CompletableFuture<Long> counter(String name, Opcode opcode, String key, long delta, long initial, int expiry) {
        return reported(() -> {
            if (delta < 0 || initial < 0) {
                long negative = delta < 0 ? delta : initial;
                String advice = delta < 0 ? "use " + (opcode == Opcode.INCREMENT ? "decr" : "incr") + " to go the other way"
                        : "start at 0 or more";
                throw new IllegalArgumentException(name + " '" + key + "': memcached counters are unsigned 64-bit numbers, so "
                        + (delta < 0 ? "delta " : "initial ") + negative + " would be sent as " + Long.toUnsignedString(negative)
                        + "; " + advice);
            }
            return dispatch.write(name, key, k -> Request.counter(opcode, k, delta, initial, expiry), Answers.counterValue());
        });
    }

    private static IllegalArgumentException zeroCasToken(String key) {
        return new IllegalArgumentException("cas '" + key + "': a CAS token of 0 means \"no check\" to memcached, which "
                + "would store unconditionally; pass the token from gets(), or use set()");
    }

    /** Runs a call, reporting anything it throws (a bad argument) through the future, as every method promises. */
    private static <T> CompletableFuture<T> reported(Supplier<CompletableFuture<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
