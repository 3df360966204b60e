package dev.grizzlyboot.cache;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * The value loads running in this JVM, one per key: a second caller for a key whose load is
 * running joins it instead of starting another, while loads of different keys never wait on each
 * other. A loader that asks for its own key gets an {@link IllegalStateException} instead of
 * waiting for itself forever. Thread-safe.
 */
final class InFlightLoads {

    private final ConcurrentMap<String, Load> running = new ConcurrentHashMap<>();

    /** A running load and, while its starter is still inside {@code load.get()}, that thread. */
    private static final class Load {

        final CompletableFuture<Object> outcome = new CompletableFuture<>();
        volatile Thread starting = Thread.currentThread();
    }

    /**
     * The running load of {@code key}, or a new one: then {@code load} is called, on this thread,
     * and its outcome is shared with everyone who joins until it completes.
     */
    CompletableFuture<Object> join(String key, Supplier<CompletableFuture<?>> load) {
        Load mine = new Load();
        Load existing = running.putIfAbsent(key, mine);
        if (existing != null) {
            if (existing.starting == Thread.currentThread()) {
                return CompletableFuture.failedFuture(new IllegalStateException(
                        "the loader of key '" + key + "' asked the cache for that same key"));
            }
            return existing.outcome;
        }
        CompletableFuture<?> outcome;
        try {
            outcome = load.get();
        } catch (RuntimeException | Error e) {
            outcome = CompletableFuture.failedFuture(e);
        } finally {
            mine.starting = null;
        }
        outcome.whenComplete((value, error) -> {
            running.remove(key, mine);
            if (error == null) {
                mine.outcome.complete(value);
            } else {
                mine.outcome.completeExceptionally(CacheErrors.unwrap(error));
            }
        });
        return mine.outcome;
    }
}
