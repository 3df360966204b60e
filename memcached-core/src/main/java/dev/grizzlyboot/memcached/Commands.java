package dev.grizzlyboot.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.grizzlyboot.memcached.Dispatch.Routing;
import dev.grizzlyboot.memcached.internal.cluster.Cluster;
import dev.grizzlyboot.memcached.internal.protocol.KeyedOperation;
import dev.grizzlyboot.memcached.internal.protocol.Opcode;
import dev.grizzlyboot.memcached.internal.protocol.Request;
import dev.grizzlyboot.memcached.internal.protocol.ResponseHandler;
import dev.grizzlyboot.memcached.internal.protocol.StatsOperation;
import dev.grizzlyboot.memcached.transcoder.CachedData;
import dev.grizzlyboot.memcached.transcoder.DefaultTranscoder;
import dev.grizzlyboot.memcached.transcoder.Transcoder;

/**
 * What each of {@link MemcachedClient}'s operations sends and how its answer is read: the request
 * (opcode, expiry, encoded value), the {@link Answers} handler and the {@link Dispatch} route, plus
 * the near cache in front of reads. Every bad argument is reported through the returned future,
 * never thrown. Thread-safe (no state of its own).
 */
final class Commands {

    /** The expiration that tells INCREMENT/DECREMENT not to create a missing key. */
    static final int NO_AUTO_CREATE = 0xFFFFFFFF;

    /** The default transcoder's encoding without compression, for the bytes an append or prepend joins. */
    private static final Transcoder<Object> UNCOMPRESSED = DefaultTranscoder.builder()
            .compressionThreshold(Integer.MAX_VALUE).build();

    private final Cluster cluster;
    private final Dispatch dispatch;
    private final ValueEncoder values;
    private final NearCache near;

    Commands(Cluster cluster, Dispatch dispatch, ValueEncoder values, NearCache near) {
        this.cluster = cluster;
        this.dispatch = dispatch;
        this.values = values;
        this.near = near;
    }

    // ---- reads ----------------------------------------------------------------------------------

    <T> CompletableFuture<T> get(String key, Transcoder<T> valueTranscoder) {
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

    <T> CompletableFuture<T> getFresh(String key, Transcoder<T> valueTranscoder) {
        return dispatch.single("get", key, k -> Request.keyed(Opcode.GET, k),
                Answers.valueOrNull(valueTranscoder, near, key, near.epoch()));
    }

    <T> CompletableFuture<CasValue<T>> gets(String key, Transcoder<T> valueTranscoder) {
        return dispatch.single("gets", key, k -> Request.keyed(Opcode.GET, k), Answers.casValueOrNull(valueTranscoder));
    }

    <T> CompletableFuture<T> getAndTouch(String key, Duration expiry, Transcoder<T> valueTranscoder) {
        return reported(() -> {
            int wireExpiry = Expiry.toWire(expiry);
            return dispatch.single("getAndTouch", key, k -> Request.touch(Opcode.GAT, k, wireExpiry),
                    Answers.valueOrNull(valueTranscoder, near, null, 0));
        });
    }

    CompletableFuture<Boolean> touch(String key, Duration expiry) {
        return reported(() -> {
            int wireExpiry = Expiry.toWire(expiry);
            return dispatch.write("touch", key, k -> Request.touch(Opcode.TOUCH, k, wireExpiry),
                    Answers.falseOn(ServerStatus.KEY_NOT_FOUND));
        });
    }

    // ---- writes ---------------------------------------------------------------------------------

    <T, R> CompletableFuture<R> store(String name, Opcode opcode, String key, T value, Duration expiry, long cas,
            Transcoder<? super T> valueTranscoder, ResponseHandler<R> handler) {
        return reported(() -> {
            int wireExpiry = Expiry.toWire(expiry);
            Function<byte[], Request> request = k -> values.storeRequest(opcode, k, value, wireExpiry, cas, valueTranscoder);
            // A CAS goes to the owner only (tokens differ per server); cas() copies a stored value to replicas.
            CompletableFuture<R> stored = cas == 0 ? dispatch.write(name, key, request, handler)
                    : dispatch.ownerWrite(name, key, request, handler);
            // A set refused here has failed already, before anything was sent.
            return opcode == Opcode.SET && cas == 0 && stored.isCompletedExceptionally() ? deletingIfRefused(key, stored) : stored;
        });
    }

    /**
     * memcached unlinks the key of a set it refuses as too large, so that the value the set meant
     * to replace is not read as current afterwards; a set this client refused, unsent, leaves the
     * server the same. The refusal is reported once the key's delete is answered (the delete's own
     * failure attached to it), so that a read after it sees no stale value.
     */
    private <R> CompletableFuture<R> deletingIfRefused(String key, CompletableFuture<R> failed) {
        Throwable error = failed.handle((value, e) -> e).join();
        if (!(Answers.causeOf(error) instanceof UnsentValueTooLargeException refused)) {
            return failed;
        }
        CompletableFuture<R> reported = new CompletableFuture<>();
        delete(key).whenComplete((deleted, deleteError) -> {
            if (deleteError != null) {
                refused.addSuppressed(deleteError);
            }
            reported.completeExceptionally(error);
        });
        return reported;
    }

    <T> CompletableFuture<CasResult> cas(String key, T value, long cas, Duration expiry, Transcoder<? super T> valueTranscoder) {
        if (cas == 0) {
            return CompletableFuture.failedFuture(zeroCasToken(key));
        }
        CompletableFuture<CasResult> owner = store("cas", Opcode.SET, key, value, expiry, cas, valueTranscoder, Answers.casResult());
        if (!cluster.replicated()) {
            return owner;
        }
        return owner.thenCompose(result -> result != CasResult.STORED ? CompletableFuture.completedFuture(result)
                : dispatch.copyToReplicas("cas", key,
                        k -> values.storeRequest(Opcode.SET, k, value, Expiry.toWire(expiry), 0, valueTranscoder))
                        .thenApply(done -> result));
    }

    /**
     * Appends or prepends. memcached joins the bytes to the stored ones and keeps the stored item's
     * flags, so the default transcoder's bytes go uncompressed: a gzipped part joined to a plain
     * value would be garbage to every reader.
     */
    <T> CompletableFuture<Boolean> concat(String name, Opcode opcode, String key, T value, Transcoder<? super T> valueTranscoder) {
        boolean byDefault = valueTranscoder instanceof DefaultTranscoder;
        Transcoder<? super T> joinable = byDefault ? UNCOMPRESSED : valueTranscoder;
        return dispatch.write(name, key, k -> Request.concat(opcode, k, joinedBytes(name, key, value, joinable, byDefault)),
                Answers.falseOn(ServerStatus.ITEM_NOT_STORED, ServerStatus.KEY_NOT_FOUND));
    }

    /**
     * The bytes an append or prepend joins to the stored ones. The default transcoder serializes
     * what it cannot store as text or bytes (any other object, and a string with an unpaired
     * surrogate); joined to an item, under that item's flags, serialized bytes make it unreadable
     * to every client, so the value already stored would be lost. Such values are refused unsent.
     */
    private <T> byte[] joinedBytes(String name, String key, T value, Transcoder<? super T> joinable, boolean byDefault) {
        CachedData data = values.encode(joinable, value);
        if (byDefault && (data.flags() & DefaultTranscoder.SERIALIZED) != 0) {
            throw new TranscoderException(name + " '" + key + "': the default transcoder would serialize the "
                    + value.getClass().getName() + " (a string only when it has an unpaired surrogate, which has no UTF-8 "
                    + "form), and memcached would join those bytes to the stored value, which no client could read then; "
                    + name + " strings, numbers or byte arrays");
        }
        return data.bytes();
    }

    CompletableFuture<Boolean> delete(String key) {
        return dispatch.write("delete", key, k -> Request.keyed(Opcode.DELETE, k), Answers.falseOn(ServerStatus.KEY_NOT_FOUND));
    }

    CompletableFuture<Long> counter(String name, Opcode opcode, String key, long delta, long initial, Duration expiry) {
        return reported(() -> counter(name, opcode, key, delta, initial, expiry == null ? NO_AUTO_CREATE : creating(name, key, expiry)));
    }

    /**
     * The wire expiry of a counter created if missing. {@link #NO_AUTO_CREATE} is also a Unix time,
     * 2106-02-07T06:28:15Z; sent for a counter meant to expire then, it would tell memcached not to
     * create the key, and the call would fail as "not found".
     */
    private static int creating(String name, String key, Duration expiry) {
        int wire = Expiry.toWire(expiry);
        if (wire == NO_AUTO_CREATE) {
            throw new IllegalArgumentException(name + " '" + key + "': an expiry ending at 2106-02-07T06:28:15Z is the "
                    + "expiration 0xFFFFFFFF, which tells memcached not to create a missing counter; use a second less");
        }
        return wire;
    }

    private CompletableFuture<Long> counter(String name, Opcode opcode, String key, long delta, long initial, int expiry) {
        if (delta < 0 || initial < 0) {
            long negative = delta < 0 ? delta : initial;
            String advice = delta < 0 ? "use " + (opcode == Opcode.INCREMENT ? "decr" : "incr") + " to go the other way"
                    : "start at 0 or more";
            throw new IllegalArgumentException(name + " '" + key + "': memcached counters are unsigned 64-bit numbers, so "
                    + (delta < 0 ? "delta " : "initial ") + negative + " would be sent as " + Long.toUnsignedString(negative)
                    + "; " + advice);
        }
        return dispatch.write(name, key, k -> Request.counter(opcode, k, delta, initial, expiry), Answers.counterValue());
    }

    // ---- bulk -----------------------------------------------------------------------------------

    <T> CompletableFuture<BulkResult<T>> getMulti(Collection<String> keys, Transcoder<T> valueTranscoder) {
        return reported(() -> getMultiThroughNear(Objects.requireNonNull(keys, "keys"), valueTranscoder));
    }

    private <T> CompletableFuture<BulkResult<T>> getMultiThroughNear(Collection<String> keys, Transcoder<T> valueTranscoder) {
        if (!near.enabled()) {
            return dispatch.bulkRead("getMulti", keys, false, Answers.foundOrError(valueTranscoder, near, 0));
        }
        KeyIndex unique = new KeyIndex(keys.size());
        for (String key : keys) {
            unique.add(key);
        }
        @SuppressWarnings("unchecked")
        KeyResult<T>[] results = new KeyResult[unique.size()];
        List<String> remote = new ArrayList<>();
        for (int i = 0; i < results.length; i++) {
            String key = unique.key(i);
            CachedData copy = key == null ? null : near.get(key);
            if (copy == null) {
                remote.add(key);
            } else {
                results[i] = new KeyResult<>(Outcome.FOUND, valueTranscoder.decode(copy), 0, null);
            }
        }
        KeyedOperation.KeyHandler<T> handler = Answers.foundOrError(valueTranscoder, near, near.epoch());
        return dispatch.bulkRead("getMulti", remote, false, handler).thenApply(fetched -> {
            for (int i = 0; i < results.length; i++) {
                if (results[i] == null) {
                    results[i] = fetched.get(unique.key(i));
                }
            }
            return new BulkResult<>(unique, results, null);
        });
    }

    <T> CompletableFuture<BulkResult<T>> getsMulti(Collection<String> keys, Transcoder<T> valueTranscoder) {
        return reported(() -> dispatch.bulkRead("getsMulti", Objects.requireNonNull(keys, "keys"), true,
                Answers.foundWithCasOrError(valueTranscoder)));
    }

    CompletableFuture<BulkResult<Object>> setMulti(Map<String, ?> entries, Duration expiry, Transcoder<Object> valueTranscoder) {
        return reported(() -> {
            int wireExpiry = Expiry.toWire(expiry);
            // Filled while the call builds its requests, on this thread, before it returns.
            Map<String, UnsentValueTooLargeException> refused = new HashMap<>(0);
            CompletableFuture<BulkResult<Object>> stored = dispatch.bulkWrite("setMulti", entries.keySet(), (key, bytes) -> {
                try {
                    return values.storeRequest(Opcode.SETQ, bytes, entries.get(key), wireExpiry, 0, valueTranscoder);
                } catch (UnsentValueTooLargeException e) {
                    refused.put(key, e);
                    throw e;
                }
            }, Answers::errorResult, Outcome.STORED, Routing.REPLICATED_WRITE);
            return refused.isEmpty() ? stored : stored.thenCompose(result -> deletingRefused(refused, result));
        });
    }

    /**
     * What {@link #deletingIfRefused} does for a set, for the keys of a setMulti this client
     * refused as too large: memcached deletes the key of a quiet set it refuses too.
     */
    private CompletableFuture<BulkResult<Object>> deletingRefused(Map<String, UnsentValueTooLargeException> refused,
            BulkResult<Object> result) {
        return deleteMulti(refused.keySet()).handle((deleted, error) -> {
            refused.forEach((key, refusal) -> {
                Throwable deleteError = error != null ? error : deleted.get(key).error();
                if (deleteError != null) {
                    refusal.addSuppressed(deleteError);
                }
            });
            return result;
        });
    }

    CompletableFuture<BulkResult<Object>> deleteMulti(Collection<String> keys) {
        return reported(() -> dispatch.bulkWrite("deleteMulti", Objects.requireNonNull(keys, "keys"),
                (key, bytes) -> Request.keyed(Opcode.DELETEQ, bytes), Answers::errorResult, Outcome.DELETED,
                Routing.REPLICATED_WRITE));
    }

    CompletableFuture<BulkResult<Object>> casMulti(Map<String, CasValue<?>> entries, Duration expiry,
            Transcoder<Object> valueTranscoder) {
        return reported(() -> {
            int wireExpiry = Expiry.toWire(expiry);
            entries.forEach((key, casValue) -> {
                if (casValue.cas() == 0) {
                    throw zeroCasToken(key);
                }
            });
            return dispatch.bulkWrite("casMulti", entries.keySet(), (key, bytes) -> {
                CasValue<?> casValue = entries.get(key);
                return values.storeRequest(Opcode.SETQ, bytes, casValue.value(), wireExpiry, casValue.cas(), valueTranscoder);
            }, Answers::errorResult, Outcome.STORED, Routing.OWNER_WRITE);
        });
    }

    // ---- servers --------------------------------------------------------------------------------

    CompletableFuture<ServerResults<Void>> noopEach() {
        return dispatch.everyServer("noop", () -> Request.of(Opcode.NOOP), Answers.<Void>okOrError());
    }

    CompletableFuture<ServerResults<String>> versionEach() {
        return dispatch.everyServer("version", () -> Request.of(Opcode.VERSION), Answers.versionText());
    }

    CompletableFuture<ServerResults<Map<String, String>>> statsEach(String group) {
        return reported(() -> {
            Objects.requireNonNull(group, "group (\"\" for the general statistics)");
            return dispatch.everyServer(() -> new StatsOperation(group, dispatch.timeoutNanos()));
        });
    }

    CompletableFuture<ServerResults<Void>> flushAllEach(Duration delay) {
        return reported(() -> {
            int wireDelay = Expiry.toWire(delay);
            if (wireDelay == 0) {
                near.invalidateAll();
            } else {
                // memcached counts the delay on its own clock, in whole seconds: a second more covers both.
                near.invalidateAllFor(delay.plusSeconds(1).toNanos());
            }
            return dispatch.everyServer("flushAll", () -> Request.flush(wireDelay), Answers.<Void>okOrError())
                    .whenComplete((results, error) -> near.invalidateAll());
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
