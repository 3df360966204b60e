package dev.grizzlyboot.testsupport;

/**
 * Thrown when a memcached process should require SASL but {@code saslpasswd2}, which makes its
 * password database, cannot be found; the message says how to install it. Tests fail with it
 * rather than being skipped.
 */
public final class SaslNotInstalledException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    SaslNotInstalledException(String searched) {
        super("No saslpasswd2 found (looked in: " + searched + "); memcached -S needs a SASL password database. "
                + "Install it with 'sudo apt-get install -y sasl2-bin libsasl2-modules' (Debian/Ubuntu) or "
                + "'brew install cyrus-sasl' (macOS).");
    }
}
