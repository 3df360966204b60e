package dev.grizzlyboot.memcached.internal.protocol;

import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.TranscoderException;

/**
 * An operation of one request and one response, such as get, set or delete. Threading as for
 * {@link Operation}.
 *
 * @param <T> the result type
 */
public final class SingleOperation<T> extends Operation<T> {

    private final String name;
    private final String key;
    private final ResponseHandler<T> handler;

    public SingleOperation(String name, String key, Request request, long timeoutNanos, ResponseHandler<T> handler) {
        super(new Request[] {request}, timeoutNanos);
        this.name = name;
        this.key = key;
        this.handler = handler;
    }

    @Override
    public void onResponse(Response response) {
        if (!isDone()) {
            try {
                complete(handler.handle(response, this));
            } catch (MemcachedException e) {
                fail(e);
            } catch (RuntimeException e) {
                fail(new TranscoderException(describe() + ": could not read the answer", e));
            }
        }
    }

    @Override
    public String routingKey() {
        return key;
    }

    @Override
    protected String describe() {
        return key == null ? name : name + " '" + key + "'";
    }
}
