package dev.grizzlyboot.testsupport;

/**
 * Thrown when no {@code memcached} binary can be found; the message says how to install one.
 * Tests that need memcached fail with it rather than being skipped.
 */
public final class MemcachedNotInstalledException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    MemcachedNotInstalledException(String searched) {
        super("No memcached binary found (looked in: " + searched + "). Install it with "
                + "'sudo apt-get install -y memcached' (Debian/Ubuntu) or 'brew install memcached' (macOS), "
                + "or point the MEMCACHED_BIN environment variable at the binary.");
    }
}
