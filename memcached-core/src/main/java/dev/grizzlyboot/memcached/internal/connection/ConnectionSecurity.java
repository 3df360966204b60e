package dev.grizzlyboot.memcached.internal.connection;

/**
 * What every new connection does before it carries requests: a TLS handshake, then a SASL login;
 * either may be absent ({@code null}). Immutable. Internal.
 *
 * @param credentials the SASL PLAIN user, or {@code null} when the servers need no login
 * @param tls         how to speak TLS, or {@code null} for plaintext
 */
public record ConnectionSecurity(SaslCredentials credentials, TlsSettings tls) {
}
