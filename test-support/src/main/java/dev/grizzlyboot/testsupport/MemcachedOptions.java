package dev.grizzlyboot.testsupport;

import java.util.List;

/**
 * How to start a memcached process: memory, maximum item size, worker threads, SASL, TLS, the
 * loopback address it listens on and any extra command-line arguments. Immutable; the
 * {@code with...} methods return copies.
 *
 * @param memoryMegabytes  cache memory ({@code -m})
 * @param itemSizeMax      largest item, as memcached's {@code -I} takes it ("1m", "512k")
 * @param threads          worker threads ({@code -t})
 * @param extraArguments   anything else to pass
 * @param sasl             the SASL user to require ({@code -S}), or {@code null} for none
 * @param tls              how to serve TLS ({@code -Z}), or {@code null} for plaintext
 * @param host             the IPv4 loopback address to listen on ({@code -l})
 * @param binaryOnly       speak the binary protocol only ({@code -B binary}): memcached then
 *                         closes, or never answers, a text-protocol connection
 */
public record MemcachedOptions(int memoryMegabytes, String itemSizeMax, int threads, List<String> extraArguments,
        MemcachedSasl sasl, MemcachedTls tls, String host, boolean binaryOnly) {

    public MemcachedOptions {
        extraArguments = List.copyOf(extraArguments);
        // Tests send traffic to this machine only; all of 127.0.0.0/8 is routed to the loopback interface.
        if (!host.matches("127(\\.\\d{1,3}){3}")) {
            throw new IllegalArgumentException("memcached listens on an IPv4 loopback address (127.x.y.z), not " + host);
        }
    }

    /** 64 MiB, 1 MiB items (memcached's default), 2 threads, no SASL, no TLS, on 127.0.0.1, both protocols. */
    public static MemcachedOptions defaults() {
        return new MemcachedOptions(64, "1m", 2, List.of(), null, null, LoopbackPorts.LOOPBACK, false);
    }

    public MemcachedOptions withMemoryMegabytes(int megabytes) {
        return new MemcachedOptions(megabytes, itemSizeMax, threads, extraArguments, sasl, tls, host, binaryOnly);
    }

    public MemcachedOptions withItemSizeMax(String size) {
        return new MemcachedOptions(memoryMegabytes, size, threads, extraArguments, sasl, tls, host, binaryOnly);
    }

    public MemcachedOptions withThreads(int count) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, count, extraArguments, sasl, tls, host, binaryOnly);
    }

    public MemcachedOptions withExtraArguments(String... arguments) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, threads, List.of(arguments), sasl, tls, host, binaryOnly);
    }

    /**
     * Requires SASL ({@code -S}): the process accepts only this user, over the binary protocol
     * (memcached then refuses the text protocol). Needs {@code saslpasswd2} (Debian package
     * {@code sasl2-bin}); without it, starting fails with {@link SaslNotInstalledException}.
     */
    public MemcachedOptions withSasl(String username, String password) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, threads, extraArguments,
                new MemcachedSasl(username, password), tls, host, binaryOnly);
    }

    /** Serves TLS only ({@code -Z}), as {@code tls} says. */
    public MemcachedOptions withTls(MemcachedTls tls) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, threads, extraArguments, sasl, tls, host, binaryOnly);
    }

    /**
     * Listens on another loopback address than 127.0.0.1, such as 127.0.0.2: two processes can
     * then share a port, as two machines behind one host name would.
     */
    public MemcachedOptions withHost(String loopbackAddress) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, threads, extraArguments, sasl, tls, loopbackAddress, binaryOnly);
    }

    /**
     * Speaks the binary protocol only ({@code -B binary}), as some deployments run memcached: the
     * process's own start-up check, {@link MemcachedProcess#stats()} and {@link MemcachedProcess#flushAll()}
     * then go over the binary protocol, and {@link MemcachedProcess#textCommand} is refused.
     */
    public MemcachedOptions withBinaryOnly() {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, threads, extraArguments, sasl, tls, host, true);
    }
}
