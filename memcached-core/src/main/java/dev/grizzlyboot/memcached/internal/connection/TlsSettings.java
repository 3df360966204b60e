package dev.grizzlyboot.memcached.internal.connection;

import java.util.Objects;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;

/**
 * How connections speak TLS: the context each new connection takes its engine from (asked again
 * for every connection, so a renewed certificate applies to the next connection), and whether
 * the server's certificate must match the host name the client connects to. Immutable. Internal.
 *
 * @param context          supplies the current TLS context
 * @param verifyHostName   whether to check the server certificate against the host name (HTTPS rules)
 */
public record TlsSettings(Supplier<SSLContext> context, boolean verifyHostName) {

    public TlsSettings {
        Objects.requireNonNull(context, "context");
    }
}
