package dev.grizzlyboot.testsupport;

import java.util.Objects;

/**
 * The one SASL user a memcached process started with {@link MemcachedOptions#withSasl} accepts
 * (memcached {@code -S}, mechanism PLAIN, from a password database made in a temporary directory).
 * Immutable.
 *
 * @param username the user name
 * @param password the password
 */
public record MemcachedSasl(String username, String password) {

    public MemcachedSasl {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
        return "MemcachedSasl[username=" + username + ", password=(hidden)]";
    }
}
