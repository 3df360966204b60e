package dev.grizzlyboot.memcached;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.internal.cluster.Cluster;
import dev.grizzlyboot.memcached.internal.connection.ConnectionPool;
import dev.grizzlyboot.memcached.internal.protocol.BulkOperation;
import dev.grizzlyboot.memcached.internal.protocol.KeyedOperation;
import dev.grizzlyboot.memcached.internal.protocol.Opcode;
import dev.grizzlyboot.memcached.internal.protocol.Operation;
import dev.grizzlyboot.memcached.internal.protocol.Request;
import dev.grizzlyboot.memcached.internal.protocol.ResponseHandler;
import dev.grizzlyboot.memcached.internal.protocol.SingleOperation;
import dev.grizzlyboot.memcached.internal.protocol.TextBulkRead;

/**
 * Where {@link MemcachedClient}'s requests go: one key's read target, a key's owner and replicas,
 * one quiet batch per server for bulk calls, or every server. It builds the operations, hands them
 * to the cluster's pools and turns routing failures into failed futures, so that every error
 * reaches the caller through the returned future. Thread-safe (stateless apart from its settings).
 */
final class Dispatch {

    /** Where a bulk call's keys go: the read target, every copy, or only the owner (CAS). */
    enum Routing { READ, REPLICATED_WRITE, OWNER_WRITE }

    /** Builds one key's request of a bulk call from the key and its encoded bytes. */
    @FunctionalInterface
    interface KeyedRequest {
        Request create(String key, byte[] keyBytes);
    }

    private final Cluster cluster;
    private final long timeoutNanos;
    private final NearCache near;
    private final ClientMeters meters;

    Dispatch(Cluster cluster, long timeoutNanos, NearCache near, ClientMeters meters) {
        this.cluster = cluster;
        this.timeoutNanos = timeoutNanos;
        this.near = near;
        this.meters = meters;
    }

    /** Sends one request to the server a key is read from. */
    <T> CompletableFuture<T> single(String name, String key, Function<byte[], Request> request, ResponseHandler<T> handler) {
        return meters.record(name, meters.start(), send(name, key, request, handler));
    }

    private <T> CompletableFuture<T> send(String name, String key, Function<byte[], Request> request, ResponseHandler<T> handler) {
        try {
            byte[] keyBytes = Keys.encode(key);
            SingleOperation<T> operation = new SingleOperation<>(name, key, request.apply(keyBytes), timeoutNanos, handler);
            cluster.readTarget(keyBytes).send(operation);
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
    <T> CompletableFuture<T> write(String name, String key, Function<byte[], Request> request, ResponseHandler<T> handler) {
        return meters.record(name, meters.start(), invalidatingNear(Collections.singletonList(key), () -> replicatedWrite(name, key, request, handler)));
    }

    /** Sends a write to a key's owner only (a CAS: tokens differ per server), dropping the near-cache copy. */
    <T> CompletableFuture<T> ownerWrite(String name, String key, Function<byte[], Request> request, ResponseHandler<T> handler) {
        return meters.record(name, meters.start(), invalidatingNear(Collections.singletonList(key), () -> send(name, key, request, handler)));
    }

    /** Sends a request to a key's replicas only (the owner already has the write). */
    CompletableFuture<Void> copyToReplicas(String name, String key, Function<byte[], Request> request) {
        try {
            byte[] keyBytes = Keys.encode(key);
            return sendToReplicas(name, key, request.apply(keyBytes), cluster.writeTargets(keyBytes));
        } catch (MemcachedException | IllegalArgumentException e) {
            return CompletableFuture.completedFuture(null);
        }
    }

    /**
     * Writes keys: groups them by server, sends one quiet batch per server (all at once), and
     * reports every key. A key that cannot be sent (bad key, too large, no server) or whose batch
     * fails gets an {@link Outcome#ERROR}; the other keys are unaffected. Writes with replicas also
     * go to each key's replicas; the owner's outcome is the one reported.
     */
    <T> CompletableFuture<BulkResult<T>> bulkWrite(String name, Collection<String> keys, KeyedRequest request,
            KeyedOperation.KeyHandler<T> handler, Outcome silentOutcome, Routing routing) {
        return meters.record(name, meters.start(),
                invalidatingNear(keys, () -> sendBulk(name, keys, request, handler, silentOutcome, routing, false)));
    }

    /**
     * Reads keys from their read targets, one batch per server and every key reported, as
     * {@link #bulkWrite} writes them: a server whose pool has text connections for bulk reads gets
     * one {@code get} (or, {@code withCas}, {@code gets}) of its keys there, any other a binary
     * quiet get per key. Keys not found are {@link Outcome#NOT_FOUND}.
     */
    <T> CompletableFuture<BulkResult<T>> bulkRead(String name, Collection<String> keys, boolean withCas,
            KeyedOperation.KeyHandler<T> handler) {
        return meters.record(name, meters.start(), sendBulk(name, keys, (key, bytes) -> Request.keyed(Opcode.GETQ, bytes), handler,
                Outcome.NOT_FOUND, Routing.READ, withCas));
    }

    /** Sends the same kind of request to every server and collects each server's answer or error, in list order. */
    <T> CompletableFuture<ServerResults<T>> everyServer(String name, Supplier<Request> request, ResponseHandler<T> handler) {
        return meters.record(name, meters.start(),
                everyServer(() -> new SingleOperation<>(name, null, request.get(), timeoutNanos, handler)));
    }

    /**
     * Sends one operation (a new one per server, from {@code operations}) to every server. A
     * server that fails or times out fails only its own entry.
     */
    <T> CompletableFuture<ServerResults<T>> everyServer(Supplier<Operation<T>> operations) {
        Map<ServerAddress, CompletableFuture<ServerResult<T>>> futures = new LinkedHashMap<>();
        cluster.pools().forEach((server, pool) -> {
            Operation<T> operation = operations.get();
            pool.send(operation);
            futures.put(server, operation.future().handle((value, error) -> error == null
                    ? new ServerResult<>(server, value, null)
                    : new ServerResult<>(server, null, Answers.asMemcached(error))));
        });
        return CompletableFuture.allOf(futures.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<ServerAddress, ServerResult<T>> results = new LinkedHashMap<>();
            futures.forEach((server, future) -> results.put(server, future.join()));
            return new ServerResults<>(results);
        });
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    /**
     * Runs a write of {@code keys}, dropping their near-cache copies before it is sent and again
     * once it is answered (a read that raced the write cannot leave the old value behind).
     */
    private <R> CompletableFuture<R> invalidatingNear(Collection<String> keys, Supplier<CompletableFuture<R>> write) {
        if (!near.enabled()) {
            return write.get();
        }
        // A null key has no copy; the write itself reports it as an InvalidKeyException.
        List<String> present = keys.stream().filter(Objects::nonNull).toList();
        present.forEach(near::invalidate);
        return write.get().whenComplete((result, error) -> present.forEach(near::invalidate));
    }

    private <T> CompletableFuture<T> replicatedWrite(String name, String key, Function<byte[], Request> request,
            ResponseHandler<T> handler) {
        if (!cluster.replicated()) {
            return send(name, key, request, handler);
        }
        try {
            byte[] keyBytes = Keys.encode(key);
            Request built = request.apply(keyBytes);
            List<ConnectionPool> targets = cluster.writeTargets(keyBytes);
            SingleOperation<T> owner = new SingleOperation<>(name, key, built, timeoutNanos, handler);
            // A key's owner is the server it is read from.
            cluster.readTarget(keyBytes).send(owner);
            return sendToReplicas(name, key, built, targets).thenCompose(done -> owner.future());
        } catch (MemcachedException | IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
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

    private <T> CompletableFuture<BulkResult<T>> sendBulk(String name, Collection<String> keys, KeyedRequest request,
            KeyedOperation.KeyHandler<T> handler, Outcome silentOutcome, Routing routing, boolean withCas) {
        KeyIndex distinct = distinct(keys);
        @SuppressWarnings("unchecked")
        KeyResult<T>[] results = new KeyResult[distinct.size()];
        // Only reads have hits whose values come apart from their results (KeyedOperation.found).
        Object[] values = routing == Routing.READ ? new Object[results.length] : null;
        Map<ConnectionPool, Batch> batches = batches(distinct, request, routing, results);
        if (batches.size() == 1) {
            Map.Entry<ConnectionPool, Batch> only = batches.entrySet().iterator().next();
            if (only.getValue().size == results.length) {
                // Every key in one batch, in call order: the batch's results are the call's, no copy.
                KeyedOperation<T> operation = send(name, only.getKey(), only.getValue(), handler, silentOutcome, routing, withCas);
                return operation.future().handle((batchResults, error) -> error == null
                        ? new BulkResult<>(distinct, batchResults, operation.values())
                        : new BulkResult<>(distinct, failed(results, only.getValue(), error), values));
            }
        }
        CompletableFuture<?>[] sent = new CompletableFuture<?>[batches.size()];
        int next = 0;
        for (Map.Entry<ConnectionPool, Batch> entry : batches.entrySet()) {
            Batch batch = entry.getValue();
            KeyedOperation<T> operation = send(name, entry.getKey(), batch, handler, silentOutcome, routing, withCas);
            // Each batch writes only its own keys' slots; allOf orders those writes before the read below.
            sent[next++] = operation.future().handle((batchResults, error) -> {
                if (error != null) {
                    return failed(results, batch, error);
                }
                Object[] batchValues = operation.values();
                for (int j = 0; j < batch.size; j++) {
                    if (batch.owner(j)) {
                        results[batch.index(j)] = batchResults[j];
                        if (batchValues != null) {
                            values[batch.index(j)] = batchValues[j];
                        }
                    }
                }
                return null;
            });
        }
        return CompletableFuture.allOf(sent).thenApply(done -> new BulkResult<>(distinct, results, values));
    }

    /** One hashing pass per call drops repeated keys and is the result's index (no entry object per key). */
    private static KeyIndex distinct(Collection<String> keys) {
        KeyIndex distinct = new KeyIndex(keys.size());
        for (String key : keys) {
            distinct.add(key);
        }
        return distinct;
    }

    /**
     * Groups the keys by server: a read's by read target, a write's by owner and, when replicated,
     * each key's replicas. A key that cannot be sent gets its error in {@code results}. Kept apart
     * from {@link #sendBulk}: written inside it, with the sends, it made one large method that C2
     * recompiled whenever the loop's profile changed (docs/benchmarks.md, "Eighteenth round").
     */
    private <T> Map<ConnectionPool, Batch> batches(KeyIndex distinct, KeyedRequest request, Routing routing,
            KeyResult<T>[] results) {
        boolean replicated = routing == Routing.REPLICATED_WRITE && cluster.replicated();
        Map<ConnectionPool, Batch> batches = new IdentityHashMap<>();
        int servers = cluster.serverCount();
        for (int i = 0; i < results.length; i++) {
            String key = distinct.key(i);
            try {
                byte[] keyBytes = Keys.encode(key);
                // A write's request is built first: a value too large fails its key before any routing.
                Request built = routing == Routing.READ ? null : request.create(key, keyBytes);
                if (replicated) {
                    List<ConnectionPool> targets = cluster.writeTargets(keyBytes);
                    for (int t = 0; t < targets.size(); t++) {
                        batchFor(batches, targets.get(t), results.length - i, servers).add(i, key, keyBytes, built, t == 0);
                    }
                } else {
                    ConnectionPool target = cluster.readTarget(keyBytes);
                    // A text bulk read sends the key bytes alone: no binary request per key.
                    if (built == null && textReads(target, routing) == null) {
                        built = request.create(key, keyBytes);
                    }
                    batchFor(batches, target, results.length - i, servers).add(i, key, keyBytes, built, true);
                }
            } catch (MemcachedException e) {
                results[i] = new KeyResult<>(Outcome.ERROR, null, 0, e);
            }
        }
        return batches;
    }

    /** Sends a server's batch: a text read to its text pool if it has one and this is a read, else binary quiet requests. */
    private <T> KeyedOperation<T> send(String name, ConnectionPool pool, Batch batch, KeyedOperation.KeyHandler<T> handler,
            Outcome silentOutcome, Routing routing, boolean withCas) {
        ConnectionPool text = textReads(pool, routing);
        KeyedOperation<T> operation = text != null
                ? new TextBulkRead<>(name, withCas, batch.keys(), batch.keyBytes(), timeoutNanos, handler, silentOutcome)
                : new BulkOperation<>(name, batch.keys(), batch.requests(), timeoutNanos, handler, silentOutcome);
        (text != null ? text : pool).send(operation);
        return operation;
    }

    /** The text pool a share of this call goes to, or {@code null} if it goes to {@code pool} as binary requests. */
    private static ConnectionPool textReads(ConnectionPool pool, Routing routing) {
        return routing == Routing.READ ? pool.textBulkReads() : null;
    }

    /** Marks the keys a failed batch owns as failed, in the call's results. */
    private static <T> KeyResult<T>[] failed(KeyResult<T>[] results, Batch batch, Throwable error) {
        KeyResult<T> failure = new KeyResult<>(Outcome.ERROR, null, 0, Answers.asMemcached(error));
        for (int j = 0; j < batch.size; j++) {
            if (batch.owner(j)) {
                results[batch.index(j)] = failure;
            }
        }
        return results;
    }

    /**
     * A pool's batch, created on first use (no lambda per key, as computeIfAbsent would need) with
     * room for at most one request per key still to come: a server's share of them, with room for an
     * uneven spread (it grows past that); with one server that is exactly all of them.
     */
    private static Batch batchFor(Map<ConnectionPool, Batch> batches, ConnectionPool pool, int remaining, int servers) {
        Batch batch = batches.get(pool);
        if (batch == null) {
            batch = new Batch(Math.min(remaining, remaining / servers * 3 / 2 + 8));
            batches.put(pool, batch);
        }
        return batch;
    }

    /**
     * The keys and requests of one server's share of a bulk call, in arrays sized up front (grown if
     * a share is bigger). A share read with the text protocol has the keys' bytes and no requests.
     */
    private static final class Batch {
        private String[] keys;
        private byte[][] keyBytes;
        /** One slot more than keys, for the terminator. */
        private Request[] requests;
        /** Each key's slot in the call's results, or -1 where this server holds only a replica (not reported). */
        private int[] slots;
        private int size;

        Batch(int capacity) {
            keys = new String[capacity];
            keyBytes = new byte[capacity][];
            requests = new Request[capacity + 1];
            slots = new int[capacity];
        }

        void add(int keyIndex, String key, byte[] bytes, Request request, boolean isOwner) {
            if (size == keys.length) {
                int capacity = size + (size >> 1) + 1;
                keys = Arrays.copyOf(keys, capacity);
                keyBytes = Arrays.copyOf(keyBytes, capacity);
                requests = Arrays.copyOf(requests, capacity + 1);
                slots = Arrays.copyOf(slots, capacity);
            }
            slots[size] = isOwner ? keyIndex : -1;
            keys[size] = key;
            keyBytes[size] = bytes;
            requests[size] = request;
            size++;
        }

        List<String> keys() {
            return Arrays.asList(keys).subList(0, size);
        }

        byte[][] keyBytes() {
            return size == keyBytes.length ? keyBytes : Arrays.copyOf(keyBytes, size);
        }

        /** The requests, then the terminator. */
        Request[] requests() {
            Request[] all = size + 1 == requests.length ? requests : Arrays.copyOf(requests, size + 1);
            all[size] = BulkOperation.TERMINATOR;
            return all;
        }

        boolean owner(int position) {
            return slots[position] >= 0;
        }

        int index(int position) {
            return slots[position];
        }
    }
}
