package dev.grizzlyboot.thrift.client;

import org.apache.thrift.transport.TTransportException;

/**
 * A call failed because a server could not be reached, did not reply in time, the connection
 * failed, or the reply did not match the call (type {@code CORRUPTED_DATA}; that connection is
 * closed), after any allowed retries. It names the server of the last attempt and tells whether the
 * request may have reached it (then the call may have run there); {@link #getType()} keeps the
 * cause's type, {@code TIMED_OUT} for a read timeout. It extends {@link TTransportException}, so
 * generated {@code Iface} methods can throw it. Immutable.
 */
public final class ThriftTransportFailureException extends TTransportException {
    private static final long serialVersionUID = 1L;

    /** The server of the last attempt, as {@code host:port}; part of the serialized form. */
    private final String server;
    /** Whether any request byte left this client; part of the serialized form. */
    private final boolean requestMayHaveReachedServer;

    ThriftTransportFailureException(String server, String method, boolean requestMayHaveReachedServer,
                                    TTransportException cause) {
        super(cause.getType(), message(server, method, requestMayHaveReachedServer, cause.getMessage()), cause);
        this.server = server;
        this.requestMayHaveReachedServer = requestMayHaveReachedServer;
    }

    ThriftTransportFailureException(String server, String method, String reason, Throwable cause) {
        super(NOT_OPEN, message(server, method, false, reason), cause);
        this.server = server;
        this.requestMayHaveReachedServer = false;
    }

    /**
     * Returns the server of the last attempt, as {@code host:port}.
     *
     * @return the server address
     */
    public String server() {
        return server;
    }

    /**
     * Tells whether the request was sent, so the server may have run the call.
     *
     * @return false if the failure happened before any request byte left this client
     */
    public boolean requestMayHaveReachedServer() {
        return requestMayHaveReachedServer;
    }

    private static String message(String server, String method, boolean reached, String reason) {
        return "Thrift call " + method + " to " + server + " failed: " + reason
                + (reached ? " (the request may have reached the server)" : " (the request was not sent)");
    }
}
