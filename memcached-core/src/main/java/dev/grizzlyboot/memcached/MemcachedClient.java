package dev.grizzlyboot.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.grizzlyboot.memcached.cluster.Cluster;
import dev.grizzlyboot.memcached.cluster.ClusterSettings;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerListChange;
import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.memcached.cluster.ServerStateListener;
import dev.grizzlyboot.memcached.connection.ClientTransport;
import dev.grizzlyboot.memcached.connection.ConnectionPool;
import dev.grizzlyboot.memcached.connection.PoolSettings;
import dev.grizzlyboot.memcached.connection.Sweeper;
import dev.grizzlyboot.memcached.protocol.BulkOperation;
import dev.grizzlyboot.memcached.protocol.Opcode;
import dev.grizzlyboot.memcached.protocol.Operation;
import dev.grizzlyboot.memcached.protocol.Request;
import dev.grizzlyboot.memcached.protocol.Response;
import dev.grizzlyboot.memcached.protocol.ResponseHandler;
import dev.grizzlyboot.memcached.protocol.SingleOperation;
import dev.grizzlyboot.memcached.protocol.StatsOperation;
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
    private final long timeoutNanos;
    private final int maxItemSize;
    private final Transcoder<Object> transcoder;
    private final NearCache near;
    private final BlockingMemcachedClient blocking;

    MemcachedClient(List<ServerAddress> servers, Map<ServerAddress, Integer> weights, PoolSettings poolSettings,
            ClusterSettings clusterSettings, Duration operationTimeout, IoStrategy ioStrategy, int ioThreads,
            int workerThreads, int maxItemSize, Transcoder<Object> transcoder, NearCache near) {
        this.timeoutNanos = operationTimeout.toNanos();
        this.near = near;
        this.maxItemSize = maxItemSize;
        this.transcoder = transcoder;
        // Room for a value of maxItemSize plus its key and extras; anything bigger is not memcached talking.
        this.transport = new ClientTransport(ioStrategy, ioThreads, workerThreads, maxItemSize + 64 * 1024);
        // A removed server's pending requests end within one operation timeout; the rest is slack.
        this.cluster = new Cluster(servers, weights, clusterSettings,
                (server, events) -> new ConnectionPool(server.host(), server.port(), transport, poolSettings, events),
                operationTimeout.multipliedBy(2));
        cluster.maintain(System.nanoTime());
        this.sweeper = new Sweeper(Duration.ofMillis(Math.max(1, Math.min(10, operationTimeout.toMillis() / 10))),
                cluster::maintain);
        this.blocking = new BlockingMemcachedClient(this);
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
        CachedData local = near.get(key);
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
        return single("get", key, k -> Request.keyed(Opcode.GET, k), valueOrNull(valueTranscoder, key, near.epoch()));
    }

    /** The value of a key with its CAS token, or {@code null} if it is not stored. */
    public CompletableFuture<CasValue<Object>> gets(String key) {
        return gets(key, transcoder);
    }

    /** The value of a key, decoded by {@code valueTranscoder}, with its CAS token, or {@code null}. */
    public <T> CompletableFuture<CasValue<T>> gets(String key, Transcoder<T> valueTranscoder) {
        return single("gets", key, k -> Request.keyed(Opcode.GET, k), (response, operation) -> {
            if (response.serverStatus() == ServerStatus.KEY_NOT_FOUND) {
                return null;
            }
            requireOk(response, operation);
            return new CasValue<>(decode(valueTranscoder, response), response.cas());
        });
    }

    /** The value of a key, or {@code null}, and resets its expiry to {@code expiry} when found. */
    public CompletableFuture<Object> getAndTouch(String key, Duration expiry) {
        int wireExpiry = Expiry.toWire(expiry);
        return single("getAndTouch", key, k -> Request.touch(Opcode.GAT, k, wireExpiry), valueOrNull(transcoder, null, 0));
    }

    /** Resets the expiry of a key; {@code false} if the key is not stored. */
    public CompletableFuture<Boolean> touch(String key, Duration expiry) {
        int wireExpiry = Expiry.toWire(expiry);
        return write("touch", key, k -> Request.touch(Opcode.TOUCH, k, wireExpiry),
                falseOn(ServerStatus.KEY_NOT_FOUND));
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
        return store("set", Opcode.SET, key, value, expiry, 0, valueTranscoder, (response, operation) -> {
            requireOk(response, operation);
            return null;
        });
    }

    /** Stores a value only if the key is not stored yet; {@code false} if it already is. */
    public CompletableFuture<Boolean> add(String key, Object value, Duration expiry) {
        return store("add", Opcode.ADD, key, value, expiry, 0, transcoder,
                falseOn(ServerStatus.KEY_EXISTS, ServerStatus.ITEM_NOT_STORED));
    }

    /** Stores a value only if the key is already stored; {@code false} if it is not. */
    public CompletableFuture<Boolean> replace(String key, Object value, Duration expiry) {
        return store("replace", Opcode.REPLACE, key, value, expiry, 0, transcoder,
                falseOn(ServerStatus.KEY_NOT_FOUND, ServerStatus.ITEM_NOT_STORED));
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
     */
    public CompletableFuture<CasResult> cas(String key, Object value, long cas, Duration expiry) {
        CompletableFuture<CasResult> owner = store("cas", Opcode.SET, key, value, expiry, cas, transcoder,
                (response, operation) -> switch (response.serverStatus()) {
                    case NO_ERROR -> CasResult.STORED;
                    case KEY_EXISTS -> CasResult.EXISTS;
                    case KEY_NOT_FOUND -> CasResult.NOT_FOUND;
                    default -> throw operation.statusError(response);
                });
        if (!cluster.replicated()) {
            return owner;
        }
        return owner.thenCompose(result -> result != CasResult.STORED ? CompletableFuture.completedFuture(result)
                : copyToReplicas("cas", key, k -> storeRequest(Opcode.SET, k, value, Expiry.toWire(expiry), 0, transcoder))
                        .thenApply(done -> result));
    }

    /** Removes a key; {@code false} if it was not stored. */
    public CompletableFuture<Boolean> delete(String key) {
        return write("delete", key, k -> Request.keyed(Opcode.DELETE, k), falseOn(ServerStatus.KEY_NOT_FOUND));
    }

    /**
     * Adds {@code delta} to a counter and returns the new value; fails with
     * {@link KeyNotFoundException} if the key is not stored.
     */
    public CompletableFuture<Long> incr(String key, long delta) {
        return counter("incr", Opcode.INCREMENT, key, delta, 0, NO_AUTO_CREATE);
    }

    /** Adds {@code delta} to a counter, creating it as {@code initial} (with {@code expiry}) if it is not stored. */
    public CompletableFuture<Long> incr(String key, long delta, long initial, Duration expiry) {
        return counter("incr", Opcode.INCREMENT, key, delta, initial, Expiry.toWire(expiry));
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
        return counter("decr", Opcode.DECREMENT, key, delta, initial, Expiry.toWire(expiry));
    }

    // ---- bulk -----------------------------------------------------------------------------------

    /** Reads many keys: one write and one round trip per server. Misses are {@link Outcome#NOT_FOUND}. */
    public CompletableFuture<BulkResult<Object>> getMulti(Collection<String> keys) {
        return getMulti(keys, transcoder);
    }

    /** Reads many keys with a given transcoder; with a near cache, only keys without a local copy go to memcached. */
    public <T> CompletableFuture<BulkResult<T>> getMulti(Collection<String> keys, Transcoder<T> valueTranscoder) {
        if (!near.enabled()) {
            return bulk("getMulti", keys, (key, bytes) -> Request.keyed(Opcode.GETQ, bytes),
                    foundOrError(valueTranscoder, 0), Outcome.NOT_FOUND, Routing.READ);
        }
        Map<String, KeyResult<T>> local = new LinkedHashMap<>();
        List<String> remote = new ArrayList<>();
        for (String key : new LinkedHashSet<>(keys)) {
            CachedData copy = near.get(key);
            if (copy == null) {
                remote.add(key);
            } else {
                local.put(key, new KeyResult<>(Outcome.FOUND, valueTranscoder.decode(copy), 0, null));
            }
        }
        return bulk("getMulti", remote, (key, bytes) -> Request.keyed(Opcode.GETQ, bytes),
                foundOrError(valueTranscoder, near.epoch()), Outcome.NOT_FOUND, Routing.READ).thenApply(fetched -> {
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
        return bulk("getsMulti", keys, (key, bytes) -> Request.keyed(Opcode.GETQ, bytes),
                (response, operation) -> response.ok()
                        ? new KeyResult<>(Outcome.FOUND, decode(transcoder, response), response.cas(), null)
                        : errorResult(response, operation),
                Outcome.NOT_FOUND, Routing.READ);
    }

    /** Stores many values with one expiry: one write and one round trip per server. */
    public CompletableFuture<BulkResult<Object>> setMulti(Map<String, ?> values, Duration expiry) {
        int wireExpiry = Expiry.toWire(expiry);
        return bulk("setMulti", values.keySet(),
                (key, bytes) -> storeRequest(Opcode.SETQ, bytes, values.get(key), wireExpiry, 0, transcoder),
                MemcachedClient::errorResult, Outcome.STORED, Routing.REPLICATED_WRITE);
    }

    /** Removes many keys; keys that were not stored are {@link Outcome#NOT_FOUND}. */
    public CompletableFuture<BulkResult<Object>> deleteMulti(Collection<String> keys) {
        return bulk("deleteMulti", keys, (key, bytes) -> Request.keyed(Opcode.DELETEQ, bytes),
                MemcachedClient::errorResult, Outcome.DELETED, Routing.REPLICATED_WRITE);
    }

    /**
     * Compare-and-swaps many keys, each with the token in its {@link CasValue}: each key is
     * {@link Outcome#STORED}, {@link Outcome#EXISTS} (token stale) or {@link Outcome#NOT_FOUND}.
     */
    public CompletableFuture<BulkResult<Object>> casMulti(Map<String, CasValue<?>> values, Duration expiry) {
        int wireExpiry = Expiry.toWire(expiry);
        return bulk("casMulti", values.keySet(), (key, bytes) -> {
            CasValue<?> casValue = values.get(key);
            return storeRequest(Opcode.SETQ, bytes, casValue.value(), wireExpiry, casValue.cas(), transcoder);
        }, MemcachedClient::errorResult, Outcome.STORED, Routing.OWNER_WRITE);
    }

    // ---- servers --------------------------------------------------------------------------------

    /** Round trip to every server; completes when all answered. */
    public CompletableFuture<Void> noop() {
        return everyServer("noop", () -> Request.of(Opcode.NOOP), (response, operation) -> {
            requireOk(response, operation);
            return null;
        }).thenApply(answers -> null);
    }

    /** Each server's version. */
    public CompletableFuture<Map<ServerAddress, String>> version() {
        return everyServer("version", () -> Request.of(Opcode.VERSION), (response, operation) -> {
            requireOk(response, operation);
            return response.valueText();
        });
    }

    /** Each server's general statistics. */
    public CompletableFuture<Map<ServerAddress, Map<String, String>>> stats() {
        return stats("");
    }

    /** Each server's statistics of one group, such as {@code "settings"}, {@code "items"} or {@code "slabs"}. */
    public CompletableFuture<Map<ServerAddress, Map<String, String>>> stats(String group) {
        return everyServer(pool -> new StatsOperation(group, timeoutNanos));
    }

    /** Invalidates every item on every server. */
    public CompletableFuture<Void> flushAll() {
        return flushAll(Duration.ZERO);
    }

    /** Invalidates every item on every server after {@code delay}. */
    public CompletableFuture<Void> flushAll(Duration delay) {
        int wireDelay = Expiry.toWire(delay);
        near.invalidateAll();
        return everyServer("flushAll", () -> Request.flush(wireDelay), (response, operation) -> {
            requireOk(response, operation);
            return null;
        }).whenComplete((answers, error) -> near.invalidateAll()).thenApply(answers -> null);
    }

    /** Closes every connection (failing operations still in flight) and stops the client's threads. */
    @Override
    public void close() {
        sweeper.close();
        cluster.close();
        transport.close();
    }

    // ---- plumbing -------------------------------------------------------------------------------

    /** Where a bulk call's keys go: the read target, every copy, or only the owner (CAS). */
    private enum Routing { READ, REPLICATED_WRITE, OWNER_WRITE }

    @FunctionalInterface
    private interface KeyedRequest {
        Request create(String key, byte[] keyBytes);
    }

    /** Sends one request to the server a key is read from. */
    private <T> CompletableFuture<T> single(String name, String key, Function<byte[], Request> request,
            ResponseHandler<T> handler) {
        try {
            SingleOperation<T> operation = new SingleOperation<>(name, key, request.apply(Keys.encode(key)), timeoutNanos, handler);
            cluster.sendToReadTarget(key, operation);
            return operation.future();
        } catch (MemcachedException | IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Sends one request to a key's owner and, with replicas, the same request to each replica.
     * The owner's answer is the result; it is given once the replicas have answered too, so that
     * a completed write is on every copy that could take it.
     */
    private <T> CompletableFuture<T> write(String name, String key, Function<byte[], Request> request,
            ResponseHandler<T> handler) {
        return invalidatingNear(List.of(key), () -> replicatedWrite(name, key, request, handler));
    }

    /**
     * Runs a write of {@code keys}, dropping their near-cache copies before it is sent and again
     * once it is answered (a read that raced the write cannot leave the old value behind).
     */
    private <R> CompletableFuture<R> invalidatingNear(Collection<String> keys, Supplier<CompletableFuture<R>> write) {
        if (!near.enabled()) {
            return write.get();
        }
        keys.forEach(near::invalidate);
        return write.get().whenComplete((result, error) -> keys.forEach(near::invalidate));
    }

    private <T> CompletableFuture<T> replicatedWrite(String name, String key, Function<byte[], Request> request,
            ResponseHandler<T> handler) {
        if (!cluster.replicated()) {
            return single(name, key, request, handler);
        }
        try {
            Request built = request.apply(Keys.encode(key));
            List<ConnectionPool> targets = cluster.writeTargets(key);
            SingleOperation<T> owner = new SingleOperation<>(name, key, built, timeoutNanos, handler);
            // A key's owner is the server it is read from.
            cluster.sendToReadTarget(key, owner);
            return sendToReplicas(name, key, built, targets).thenCompose(done -> owner.future());
        } catch (MemcachedException | IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Sends a request to a key's replicas only (the owner already has the write). */
    private CompletableFuture<Void> copyToReplicas(String name, String key, Function<byte[], Request> request) {
        try {
            return sendToReplicas(name, key, request.apply(Keys.encode(key)), cluster.writeTargets(key));
        } catch (MemcachedException | IllegalArgumentException e) {
            return CompletableFuture.completedFuture(null);
        }
    }

    /** A replica that misses a write is no error of the caller's: its copy is a best effort. */
    private CompletableFuture<Void> sendToReplicas(String name, String key, Request request, List<ConnectionPool> targets) {
        if (targets.size() == 1) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<?>[] copies = new CompletableFuture<?>[targets.size() - 1];
        for (int i = 1; i < targets.size(); i++) {
            SingleOperation<Object> copy = new SingleOperation<>(name + " (replica)", key, request, timeoutNanos,
                    (response, operation) -> null);
            targets.get(i).send(copy);
            copies[i - 1] = copy.future().exceptionally(error -> null);
        }
        return CompletableFuture.allOf(copies);
    }

    private <T, R> CompletableFuture<R> store(String name, Opcode opcode, String key, T value, Duration expiry, long cas,
            Transcoder<? super T> valueTranscoder, ResponseHandler<R> handler) {
        try {
            int wireExpiry = Expiry.toWire(expiry);
            Function<byte[], Request> request = k -> storeRequest(opcode, k, value, wireExpiry, cas, valueTranscoder);
            if (cas == 0) {
                return write(name, key, request, handler);
            }
            // A CAS goes to the owner only (tokens differ per server); cas() copies a stored value to replicas.
            return invalidatingNear(List.of(key), () -> single(name, key, request, handler));
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletableFuture<Boolean> concat(String name, Opcode opcode, String key, Object value) {
        return write(name, key, k -> Request.concat(opcode, k, encode(transcoder, value).bytes()),
                falseOn(ServerStatus.ITEM_NOT_STORED, ServerStatus.KEY_NOT_FOUND));
    }

    private CompletableFuture<Long> counter(String name, Opcode opcode, String key, long delta, long initial, int expiry) {
        return write(name, key, k -> Request.counter(opcode, k, delta, initial, expiry), (response, operation) -> {
            requireOk(response, operation);
            return response.counterValue();
        });
    }

    private <T> Request storeRequest(Opcode opcode, byte[] key, T value, int expiry, long cas, Transcoder<? super T> valueTranscoder) {
        CachedData data = encode(valueTranscoder, value);
        return Request.store(opcode, key, data.flags(), expiry, data.bytes(), cas);
    }

    private <T> CachedData encode(Transcoder<? super T> valueTranscoder, T value) {
        if (value == null) {
            throw new TranscoderException("memcached cannot store null");
        }
        CachedData data;
        try {
            data = valueTranscoder.encode(value);
        } catch (MemcachedException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new TranscoderException("could not encode a " + value.getClass().getName(), e);
        }
        if (data.bytes().length > maxItemSize) {
            throw new ValueTooLargeException("value is " + data.bytes().length + " bytes; the limit (maxItemSize) is "
                    + maxItemSize + " bytes");
        }
        return data;
    }

    /**
     * Groups keys by server, sends one quiet batch per server (all at once), and reports every key.
     * A key that cannot be sent (bad key, too large, no server) or whose batch fails gets an
     * {@link Outcome#ERROR}; the other keys are unaffected. Writes with replicas also go to each
     * key's replicas; the owner's outcome is the one reported.
     */
    private <T> CompletableFuture<BulkResult<T>> bulk(String name, Collection<String> keys, KeyedRequest request,
            BulkOperation.KeyHandler<T> handler, Outcome silentOutcome, Routing routing) {
        if (routing == Routing.READ) {
            return sendBulk(name, keys, request, handler, silentOutcome, routing);
        }
        return invalidatingNear(keys, () -> sendBulk(name, keys, request, handler, silentOutcome, routing));
    }

    private <T> CompletableFuture<BulkResult<T>> sendBulk(String name, Collection<String> keys, KeyedRequest request,
            BulkOperation.KeyHandler<T> handler, Outcome silentOutcome, Routing routing) {
        List<String> unique = new ArrayList<>(keys instanceof Set<?> ? keys : new LinkedHashSet<>(keys));
        @SuppressWarnings("unchecked")
        KeyResult<T>[] results = new KeyResult[unique.size()];
        boolean replicated = routing == Routing.REPLICATED_WRITE && cluster.replicated();
        Map<ConnectionPool, Batch> batches = new IdentityHashMap<>();
        for (int i = 0; i < results.length; i++) {
            String key = unique.get(i);
            try {
                Request built = request.create(key, Keys.encode(key));
                if (replicated) {
                    List<ConnectionPool> targets = cluster.writeTargets(key);
                    for (int t = 0; t < targets.size(); t++) {
                        batches.computeIfAbsent(targets.get(t), pool -> new Batch()).add(i, key, built, t == 0);
                    }
                } else {
                    batches.computeIfAbsent(cluster.readTarget(key), pool -> new Batch()).add(i, key, built, true);
                }
            } catch (MemcachedException e) {
                results[i] = new KeyResult<>(Outcome.ERROR, null, 0, e);
            }
        }
        CompletableFuture<?>[] sent = new CompletableFuture<?>[batches.size()];
        int next = 0;
        for (Map.Entry<ConnectionPool, Batch> entry : batches.entrySet()) {
            Batch batch = entry.getValue();
            BulkOperation<T> operation = new BulkOperation<>(name, batch.keys,
                    batch.requests.toArray(Request[]::new), timeoutNanos, handler, silentOutcome);
            entry.getKey().send(operation);
            // Each batch writes only its own keys' slots; allOf orders those writes before the read below.
            sent[next++] = operation.future().handle((batchResults, error) -> {
                for (int j = 0; j < batch.keys.size(); j++) {
                    if (batch.owner.get(j)) {
                        results[batch.index.get(j)] = error == null ? batchResults[j]
                                : new KeyResult<>(Outcome.ERROR, null, 0, asMemcached(error));
                    }
                }
                return null;
            });
        }
        return CompletableFuture.allOf(sent).thenApply(done -> {
            Map<String, KeyResult<T>> ordered = new LinkedHashMap<>(results.length * 4 / 3 + 1);
            for (int i = 0; i < results.length; i++) {
                ordered.put(unique.get(i), results[i]);
            }
            return new BulkResult<>(ordered);
        });
    }

    /** The keys and requests of one server's share of a bulk call. */
    private static final class Batch {
        final List<Integer> index = new ArrayList<>();
        final List<String> keys = new ArrayList<>();
        final List<Request> requests = new ArrayList<>();
        final List<Boolean> owner = new ArrayList<>();

        void add(int keyIndex, String key, Request request, boolean isOwner) {
            index.add(keyIndex);
            keys.add(key);
            requests.add(request);
            owner.add(isOwner);
        }
    }

    private <T> CompletableFuture<Map<ServerAddress, T>> everyServer(String name, Supplier<Request> request,
            ResponseHandler<T> handler) {
        return everyServer(pool -> new SingleOperation<>(name, null, request.get(), timeoutNanos, handler));
    }

    private <T> CompletableFuture<Map<ServerAddress, T>> everyServer(Function<ConnectionPool, Operation<T>> operations) {
        Map<ServerAddress, CompletableFuture<T>> futures = new LinkedHashMap<>();
        cluster.pools().forEach((server, pool) -> {
            Operation<T> operation = operations.apply(pool);
            pool.send(operation);
            futures.put(server, operation.future());
        });
        return CompletableFuture.allOf(futures.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<ServerAddress, T> answers = new LinkedHashMap<>();
            futures.forEach((server, future) -> answers.put(server, future.join()));
            return answers;
        });
    }

    /**
     * The value, or {@code null} on a miss; a value read for {@code nearKey} (not null) is offered
     * to the near cache with the epoch taken before the read was sent.
     */
    private <T> ResponseHandler<T> valueOrNull(Transcoder<T> valueTranscoder, String nearKey, long epoch) {
        return (response, operation) -> {
            if (response.serverStatus() == ServerStatus.KEY_NOT_FOUND) {
                return null;
            }
            requireOk(response, operation);
            CachedData data = stored(response);
            if (nearKey != null) {
                near.loaded(nearKey, data, epoch);
            }
            return valueTranscoder.decode(data);
        };
    }

    /** A getMulti key's result; found values are offered to the near cache (a no-op without one). */
    private <T> BulkOperation.KeyHandler<T> foundOrError(Transcoder<T> valueTranscoder, long epoch) {
        return (response, operation) -> {
            if (!response.ok()) {
                return errorResult(response, operation);
            }
            CachedData data = stored(response);
            near.loaded(operation.keyOf(response), data, epoch);
            return new KeyResult<>(Outcome.FOUND, valueTranscoder.decode(data), 0, null);
        };
    }

    private static ResponseHandler<Boolean> falseOn(ServerStatus... expected) {
        return (response, operation) -> {
            if (response.ok()) {
                return true;
            }
            for (ServerStatus status : expected) {
                if (response.serverStatus() == status) {
                    return false;
                }
            }
            throw operation.statusError(response);
        };
    }

    private static void requireOk(Response response, Operation<?> operation) {
        if (!response.ok()) {
            throw operation.statusError(response);
        }
    }

    private static <T> T decode(Transcoder<T> valueTranscoder, Response response) {
        return valueTranscoder.decode(stored(response));
    }

    private static CachedData stored(Response response) {
        return new CachedData(response.flags(), response.value());
    }

    private static <T> KeyResult<T> errorResult(Response response, BulkOperation<T> operation) {
        return switch (response.serverStatus()) {
            case KEY_NOT_FOUND -> new KeyResult<>(Outcome.NOT_FOUND, null, 0, null);
            case KEY_EXISTS -> new KeyResult<>(Outcome.EXISTS, null, 0, null);
            case ITEM_NOT_STORED -> new KeyResult<>(Outcome.NOT_STORED, null, 0, null);
            default -> new KeyResult<>(Outcome.ERROR, null, 0, operation.statusError(response));
        };
    }

    private static MemcachedException asMemcached(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof MemcachedException memcached ? memcached : new MemcachedException(cause.toString(), cause);
    }
}
