package dev.grizzlyboot.memcached.internal.protocol;

/**
 * Turns the response to a single request into the caller's result, or throws the caller's
 * exception (usually {@link Operation#statusError(Response)}). Must be stateless.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface ResponseHandler<T> {

    T handle(Response response, Operation<T> operation);
}
