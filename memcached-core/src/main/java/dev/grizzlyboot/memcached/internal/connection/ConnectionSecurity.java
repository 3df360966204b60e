package dev.grizzlyboot.memcached.internal.connection;

/**
 * What every new connection does before it carries requests: authenticate with SASL credentials,
 * or not ({@code null}). Immutable. Internal.
 *
 * @param credentials the SASL PLAIN user, or {@code null} when the servers need no login
 */
public record ConnectionSecurity(SaslCredentials credentials) {

    /** No authentication. */
    public static final ConnectionSecurity NONE = new ConnectionSecurity(null);
}
