package dev.grizzlyboot.testsupport;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** Finds the programs the test servers need: an environment variable, then the {@code PATH}, then the usual places. */
final class Executables {

    private Executables() {
    }

    /** The memcached executable ({@code MEMCACHED_BIN} first). */
    static Path memcached() {
        return find("memcached", "MEMCACHED_BIN", MemcachedNotInstalledException::new);
    }

    /** {@code saslpasswd2}, which makes SASL password databases ({@code SASLPASSWD2_BIN} first). */
    static Path saslpasswd2() {
        return find("saslpasswd2", "SASLPASSWD2_BIN", SaslNotInstalledException::new);
    }

    /**
     * @param missing makes the exception for a missing program from the places searched
     */
    private static Path find(String name, String variable, Function<String, RuntimeException> missing) {
        String explicit = System.getenv(variable);
        if (explicit != null && !explicit.isBlank()) {
            Path path = Path.of(explicit);
            if (Files.isExecutable(path)) {
                return path;
            }
            throw missing.apply(variable + "=" + explicit + " (not executable)");
        }
        Set<String> dirs = new LinkedHashSet<>();
        String pathVar = System.getenv("PATH");
        if (pathVar != null) {
            dirs.addAll(List.of(pathVar.split(File.pathSeparator)));
        }
        dirs.addAll(List.of("/usr/bin", "/usr/local/bin", "/usr/sbin", "/opt/homebrew/bin", "/opt/homebrew/sbin"));
        List<String> searched = new ArrayList<>();
        for (String dir : dirs) {
            if (dir.isBlank()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            searched.add(dir);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw missing.apply(String.join(", ", searched));
    }
}
