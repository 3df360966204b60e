package dev.grizzlyboot.thrift.server;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@link ThriftServer#start()} could not bind its address: the port is taken, or the host is not an
 * address of this machine. Carries the configured host and port, so that callers (Spring Boot's
 * failure analysis, for one) can name them without parsing the message. Immutable.
 */
public final class ThriftServerBindException extends UncheckedIOException {

    /** The host the server was to listen on, as configured. */
    private final String host;
    /** The port the server was to listen on, as configured. */
    private final int port;

    ThriftServerBindException(String host, int port, IOException cause) {
        super("cannot bind Thrift server to " + host + ":" + port, cause);
        this.host = host;
        this.port = port;
    }

    /**
     * Returns the host the server was to listen on, as configured.
     *
     * @return the configured host
     */
    public String host() {
        return host;
    }

    /**
     * Returns the port the server was to listen on, as configured.
     *
     * @return the configured port
     */
    public int port() {
        return port;
    }
}
