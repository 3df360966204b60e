package dev.grizzlyboot.memcached.internal.connection;

import java.util.Objects;

/**
 * The user and password every new connection authenticates with (SASL PLAIN). Immutable; its
 * {@code toString} never shows the password. Internal.
 *
 * @param username the SASL user
 * @param password the password
 */
public record SaslCredentials(String username, String password) {

    public SaslCredentials {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
        return "SaslCredentials[username=" + username + ", password=(hidden)]";
    }
}
