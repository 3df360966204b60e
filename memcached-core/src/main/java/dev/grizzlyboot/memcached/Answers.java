package dev.grizzlyboot.memcached;

import java.util.concurrent.CompletionException;

import dev.grizzlyboot.memcached.internal.protocol.KeyedOperation;
import dev.grizzlyboot.memcached.internal.protocol.Operation;
import dev.grizzlyboot.memcached.internal.protocol.Response;
import dev.grizzlyboot.memcached.internal.protocol.ResponseHandler;
import dev.grizzlyboot.memcached.transcoder.CachedData;
import dev.grizzlyboot.memcached.transcoder.Transcoder;

/**
 * How {@link MemcachedClient} turns a server's reply into the caller's answer: expected outcomes
 * (a miss, a key that exists) become values, every other status a typed exception. Stateless.
 */
final class Answers {

    private Answers() {
    }

    /**
     * The value, or {@code null} on a miss; a value read for {@code nearKey} (not null) is offered
     * to the near cache with the epoch taken before the read was sent, and a miss drops its copy
     * (getFresh reads keys that have one).
     */
    static <T> ResponseHandler<T> valueOrNull(Transcoder<T> valueTranscoder, NearCache near, String nearKey, long epoch) {
        return (response, operation) -> {
            if (response.serverStatus() == ServerStatus.KEY_NOT_FOUND) {
                if (nearKey != null) {
                    near.absent(nearKey);
                }
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

    /** The value with its CAS token, or {@code null} on a miss. */
    static <T> ResponseHandler<CasValue<T>> casValueOrNull(Transcoder<T> valueTranscoder) {
        return (response, operation) -> {
            if (response.serverStatus() == ServerStatus.KEY_NOT_FOUND) {
                return null;
            }
            requireOk(response, operation);
            return new CasValue<>(decode(valueTranscoder, response), response.cas());
        };
    }

    /** A getMulti key's result; found values are offered to the near cache (a no-op without one). */
    static <T> KeyedOperation.KeyHandler<T> foundOrError(Transcoder<T> valueTranscoder, NearCache near, long epoch) {
        return (response, operation) -> {
            if (!response.ok()) {
                return errorResult(response, operation);
            }
            CachedData data = stored(response);
            near.loaded(operation.answeringKey(), data, epoch);
            return operation.found(valueTranscoder.decode(data));
        };
    }

    /** A getsMulti key's result: the value with its CAS token, or the key's outcome. */
    static <T> KeyedOperation.KeyHandler<T> foundWithCasOrError(Transcoder<T> valueTranscoder) {
        return (response, operation) -> response.ok()
                ? new KeyResult<>(Outcome.FOUND, decode(valueTranscoder, response), response.cas(), null)
                : errorResult(response, operation);
    }

    /** {@code true} when the server says OK, {@code false} on the expected statuses, an exception on any other. */
    static ResponseHandler<Boolean> falseOn(ServerStatus... expected) {
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

    /** Nothing on OK, an exception on any other status. */
    static <T> ResponseHandler<T> okOrError() {
        return (response, operation) -> {
            requireOk(response, operation);
            return null;
        };
    }

    /** A counter's new value. */
    static ResponseHandler<Long> counterValue() {
        return (response, operation) -> {
            requireOk(response, operation);
            return response.counterValue();
        };
    }

    /** A CAS write's result: stored, token stale, or key gone. */
    static ResponseHandler<CasResult> casResult() {
        return (response, operation) -> switch (response.serverStatus()) {
            case NO_ERROR -> CasResult.STORED;
            case KEY_EXISTS -> CasResult.EXISTS;
            case KEY_NOT_FOUND -> CasResult.NOT_FOUND;
            default -> throw operation.statusError(response);
        };
    }

    /** A server's VERSION answer. */
    static ResponseHandler<String> versionText() {
        return (response, operation) -> {
            requireOk(response, operation);
            return response.valueText();
        };
    }

    /** A bulk key's outcome from its (non-silent) reply status. */
    static <T> KeyResult<T> errorResult(Response response, KeyedOperation<T> operation) {
        return switch (response.serverStatus()) {
            case KEY_NOT_FOUND -> new KeyResult<>(Outcome.NOT_FOUND, null, 0, null);
            case KEY_EXISTS -> new KeyResult<>(Outcome.EXISTS, null, 0, null);
            case ITEM_NOT_STORED -> new KeyResult<>(Outcome.NOT_STORED, null, 0, null);
            default -> new KeyResult<>(Outcome.ERROR, null, 0, operation.statusError(response));
        };
    }

    /** The {@link MemcachedException} behind a future's failure (wrapping anything else). */
    static MemcachedException asMemcached(Throwable error) {
        Throwable cause = causeOf(error);
        return cause instanceof MemcachedException memcached ? memcached : new MemcachedException(cause.toString(), cause);
    }

    /** What a future failed with: {@code error} itself, or the cause a {@link CompletionException} wraps. */
    static Throwable causeOf(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
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
}
