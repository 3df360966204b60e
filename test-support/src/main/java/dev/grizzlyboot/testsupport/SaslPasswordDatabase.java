package dev.grizzlyboot.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A SASL configuration for one memcached process in a temporary directory: a password database
 * holding one user (made with {@code saslpasswd2}) and the {@code memcached.conf} that points
 * Cyrus SASL at it, limited to PLAIN. memcached finds the directory through {@code SASL_CONF_PATH}.
 */
final class SaslPasswordDatabase {

    private SaslPasswordDatabase() {
    }

    /** Creates the directory for {@code user} and returns it (the value for {@code SASL_CONF_PATH}). */
    static Path create(MemcachedSasl user) {
        Path saslpasswd2 = Executables.saslpasswd2();
        try {
            Path directory = Files.createTempDirectory("memcached-sasl-");
            Path database = directory.resolve("sasldb2");
            Path config = directory.resolve("memcached.conf");
            directory.toFile().deleteOnExit();
            database.toFile().deleteOnExit();
            config.toFile().deleteOnExit();
            // -a memcached: the application name memcached registers with Cyrus SASL (its realm-less users).
            Process process = new ProcessBuilder(saslpasswd2.toString(), "-p", "-c", "-a", "memcached",
                    "-f", database.toString(), user.username())
                    .redirectErrorStream(true)
                    .start();
            try (OutputStream in = process.getOutputStream()) {
                in.write(user.password().getBytes(StandardCharsets.UTF_8));
            }
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                throw new IllegalStateException(saslpasswd2 + " failed for user " + user.username() + ": " + output);
            }
            Files.writeString(config, "mech_list: plain\nsasldb_path: " + database + "\n");
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a SASL password database", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running saslpasswd2", e);
        }
    }
}
