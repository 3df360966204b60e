package dev.grizzlyboot.testsupport;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Finds the memcached executable: {@code MEMCACHED_BIN}, then the {@code PATH}, then the usual places. */
final class MemcachedBinary {

    private MemcachedBinary() {
    }

    static Path locate() {
        String explicit = System.getenv("MEMCACHED_BIN");
        if (explicit != null && !explicit.isBlank()) {
            Path path = Path.of(explicit);
            if (Files.isExecutable(path)) {
                return path;
            }
            throw new MemcachedNotInstalledException("MEMCACHED_BIN=" + explicit + " (not executable)");
        }
        Set<String> dirs = new LinkedHashSet<>();
        String pathVar = System.getenv("PATH");
        if (pathVar != null) {
            dirs.addAll(List.of(pathVar.split(File.pathSeparator)));
        }
        dirs.addAll(List.of("/usr/bin", "/usr/local/bin", "/usr/sbin", "/opt/homebrew/bin"));
        List<String> searched = new ArrayList<>();
        for (String dir : dirs) {
            if (dir.isBlank()) {
                continue;
            }
            Path candidate = Path.of(dir, "memcached");
            searched.add(dir);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new MemcachedNotInstalledException(String.join(", ", searched));
    }
}
