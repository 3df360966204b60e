package dev.grizzlyboot.cache;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * The value loads running in this JVM, one per key: a second caller for a key whose load is
 * running joins it instead of starting another, while loads of different keys never wait on each
 * other. Thread-safe.
 */
final class InFlightLoads {

    private final ConcurrentMap<String, CompletableFuture<Object>> running = new ConcurrentHashMap<>();

    /**
     * The running load of {@code key}, or a new one: then {@code load} is called, on this thread,
     * and its outcome is shared with everyone who joins until it completes.
     */
    CompletableFuture<Object> join(String key, Supplier<CompletableFuture<?>> load) {
        CompletableFuture<Object> mine = new CompletableFuture<>();
        CompletableFuture<Object> existing = running.putIfAbsent(key, mine);
        if (existing != null) {
            return existing;
        }
        CompletableFuture<?> outcome;
        try {
            outcome = load.get();
        } catch (RuntimeException | Error e) {
            outcome = CompletableFuture.failedFuture(e);
        }
        outcome.whenComplete((value, error) -> {
            running.remove(key, mine);
            if (error == null) {
                mine.complete(value);
            } else {
                mine.completeExceptionally(CacheErrors.unwrap(error));
            }
        });
        return mine;
    }
}
