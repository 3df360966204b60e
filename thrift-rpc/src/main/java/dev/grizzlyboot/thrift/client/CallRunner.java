package dev.grizzlyboot.thrift.client;

import java.util.List;

import dev.grizzlyboot.thrift.observation.CallObserver;
import dev.grizzlyboot.thrift.observation.CallOutcome;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.transport.TTransportException;

/**
 * Runs one call on a pooled connection with the retry rules: a transport failure (including a
 * reply that does not match the call, which closes that connection) moves on to the next server
 * unless the request was sent and the method is not idempotent, or the request was too large to
 * send (it would be on any server; the connection stays in the pool); every other outcome
 * (a result, a declared exception, a {@code TApplicationException}) returns to the caller as it
 * is. Tells the server's pool about replies and read timeouts, which decide whether the server
 * stays in rotation. Thread-safe.
 */
final class CallRunner {
    /** The generated client's work on one borrowed connection, given the call's arguments. */
    interface RemoteCall {
        Object run(PooledConnection connection, Object[] args) throws Throwable;
    }

    private final ServerRotation rotation;
    private final int retries;
    private final String clientName;
    private final CallObserver observer;

    CallRunner(ServerRotation rotation, int retries, String clientName, CallObserver observer) {
        this.rotation = rotation;
        this.retries = retries;
        this.clientName = clientName;
        this.observer = observer;
    }

    Object run(String method, CallOptions options, RemoteCall call, Object[] args) throws Throwable {
        if (observer == null) {
            return attempts(method, options, call, args);
        }
        CallObserver.ObservedCall observed = observer.start();
        try {
            Object result = attempts(method, options, call, args);
            observed.end(clientName, method, CallOutcome.SUCCESS, null);
            return result;
        } catch (Throwable e) {
            observed.end(clientName, method, CallOutcome.of(e), e);
            throw e;
        }
    }

    private Object attempts(String method, CallOptions options, RemoteCall call, Object[] args) throws Throwable {
        List<ServerPool> order = rotation.order();
        ThriftTransportFailureException failure = null;
        for (int attempt = 0; attempt <= retries; attempt++) {
            ServerPool pool = order.get(attempt % order.size());
            PooledConnection connection;
            try {
                connection = pool.borrow(method);
            } catch (ThriftTransportFailureException e) {
                failure = e;
                continue;
            }
            boolean reusable = false;
            try {
                connection.transport.beginCall(options.readTimeout());
                Object result = call.run(connection, args);
                reusable = true;
                pool.replied();
                return result;
            } catch (TTransportException e) {
                if (e.getType() == TTransportException.TIMED_OUT) {
                    pool.timedOut(e);
                }
                boolean sent = connection.transport.requestSent();
                failure = new ThriftTransportFailureException(pool.name, method, sent, e);
                if (connection.transport.requestRefused()) {
                    reusable = true;
                    throw failure;
                }
                if (sent && !options.idempotent()) {
                    throw failure;
                }
            } catch (TApplicationException e) {
                reusable = replyWasWhole(e);
                pool.replied();
                throw e;
            } catch (TException e) {
                // Declared exceptions are generated TBase structs read whole from the reply;
                // anything else (a protocol error) leaves the stream position unknown.
                reusable = e instanceof TBase;
                if (reusable) {
                    pool.replied();
                }
                throw e;
            } finally {
                pool.giveBack(connection, reusable);
            }
        }
        throw failure;
    }

    private static boolean replyWasWhole(TApplicationException e) {
        int type = e.getType();
        return type != TApplicationException.BAD_SEQUENCE_ID
                && type != TApplicationException.WRONG_METHOD_NAME
                && type != TApplicationException.INVALID_MESSAGE_TYPE
                && type != TApplicationException.PROTOCOL_ERROR;
    }
}
