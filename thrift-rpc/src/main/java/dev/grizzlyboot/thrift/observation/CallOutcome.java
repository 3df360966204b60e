package dev.grizzlyboot.thrift.observation;

import java.util.Locale;

import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.transport.TTransportException;

/** How a Thrift call ended, as recorded by a {@link CallObserver}. Immutable. */
public enum CallOutcome {
    /** The method returned normally (for a oneway call: the request was handled or sent). */
    SUCCESS,
    /** The method threw an exception declared in the IDL. */
    DECLARED_EXCEPTION,
    /** The server answered with a {@code TApplicationException} (unknown method, internal error). */
    APPLICATION_EXCEPTION,
    /** The connection, the framing or the protocol failed. */
    TRANSPORT_ERROR,
    /** No reply within the read timeout. */
    TIMEOUT;

    /**
     * Returns the tag value: the name in lower case, as {@code declared_exception}.
     *
     * @return the value for an {@code outcome} tag
     */
    public String tagValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Classifies the exception a client call ended with.
     *
     * @param error what the call threw
     * @return {@link #TIMEOUT} for a read timeout, {@link #APPLICATION_EXCEPTION} for a
     *         {@code TApplicationException}, {@link #DECLARED_EXCEPTION} for an IDL exception (a
     *         generated {@code TBase}), {@link #TRANSPORT_ERROR} for anything else
     */
    public static CallOutcome of(Throwable error) {
        if (error instanceof TTransportException transport) {
            return transport.getType() == TTransportException.TIMED_OUT ? TIMEOUT : TRANSPORT_ERROR;
        }
        if (error instanceof TApplicationException) {
            return APPLICATION_EXCEPTION;
        }
        return error instanceof TBase ? DECLARED_EXCEPTION : TRANSPORT_ERROR;
    }
}
