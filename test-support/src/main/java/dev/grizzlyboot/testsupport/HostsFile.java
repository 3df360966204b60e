package dev.grizzlyboot.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A hosts file of the test's own that a {@link ChildJvm} resolves host names through instead of
 * DNS and {@code /etc/hosts}, with the JVM's lookup cache off, so a test can make a name resolve,
 * move to another address or stop resolving without touching the machine. The JDK reads the file
 * at every lookup; each change replaces it whole, so a lookup never sees it half written. Driven
 * by one test thread.
 */
public final class HostsFile implements AutoCloseable {

    private final Path directory;
    private final Path hosts;
    private final Path securityProperties;
    private final Map<String, String> addresses = new LinkedHashMap<>();

    private HostsFile(Path directory) {
        this.directory = directory;
        this.hosts = directory.resolve("hosts");
        this.securityProperties = directory.resolve("java.security");
    }

    /** An empty hosts file: no name resolves until {@link #map} adds it. */
    public static HostsFile create() {
        try {
            HostsFile file = new HostsFile(Files.createTempDirectory("hosts-"));
            // The JDK's own java.security caches failed lookups for 10 s, and a security property
            // outranks the sun.net.inetaddr.* system properties: only a properties file turns it off.
            Files.writeString(file.securityProperties, "networkaddress.cache.ttl=0\nnetworkaddress.cache.negative.ttl=0\n");
            file.write();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a hosts file", e);
        }
    }

    /** Makes {@code name} resolve to {@code address} (an IP literal) from the next lookup on. */
    public void map(String name, String address) {
        addresses.put(name, address);
        write();
    }

    /** Makes {@code name} stop resolving from the next lookup on. */
    public void unmap(String name) {
        addresses.remove(name);
        write();
    }

    /** The options that make a JVM resolve through this file only, caching nothing. */
    public List<String> jvmOptions() {
        return List.of("-Djdk.net.hosts.file=" + hosts, "-Djava.security.properties=" + securityProperties);
    }

    /** Deletes the file and its directory. */
    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + directory, e);
        }
    }

    private void write() {
        StringBuilder text = new StringBuilder();
        addresses.forEach((name, address) -> text.append(address).append(' ').append(name).append('\n'));
        try {
            Path next = Files.writeString(directory.resolve("hosts.next"), text);
            Files.move(next, hosts, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + hosts, e);
        }
    }
}
