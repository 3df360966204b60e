package dev.grizzlyboot.testsupport;

import java.util.List;

/**
 * How to start a memcached process: memory, maximum item size, worker threads, SASL, TLS and any
 * extra command-line arguments. Immutable; the {@code with...} methods return copies.
 *
 * @param memoryMegabytes  cache memory ({@code -m})
 * @param itemSizeMax      largest item, as memcached's {@code -I} takes it ("1m", "512k")
 * @param threads          worker threads ({@code -t})
 * @param extraArguments   anything else to pass
 * @param sasl             the SASL user to require ({@code -S}), or {@code null} for none
 * @param tls              how to serve TLS ({@code -Z}), or {@code null} for plaintext
 */
public record MemcachedOptions(int memoryMegabytes, String itemSizeMax, int threads, List<String> extraArguments,
        MemcachedSasl sasl, MemcachedTls tls) {

    public MemcachedOptions {
        extraArguments = List.copyOf(extraArguments);
    }

    /** 64 MiB, 1 MiB items (memcached's default), 2 threads, no SASL, no TLS. */
    public static MemcachedOptions defaults() {
        return new MemcachedOptions(64, "1m", 2, List.of(), null, null);
    }

    public MemcachedOptions withMemoryMegabytes(int megabytes) {
        return new MemcachedOptions(megabytes, itemSizeMax, threads, extraArguments, sasl, tls);
    }

    public MemcachedOptions withItemSizeMax(String size) {
        return new MemcachedOptions(memoryMegabytes, size, threads, extraArguments, sasl, tls);
    }

    public MemcachedOptions withThreads(int count) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, count, extraArguments, sasl, tls);
    }

    public MemcachedOptions withExtraArguments(String... arguments) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, threads, List.of(arguments), sasl, tls);
    }

    /**
     * Requires SASL ({@code -S}): the process accepts only this user, over the binary protocol
     * (memcached then refuses the text protocol). Needs {@code saslpasswd2} (Debian package
     * {@code sasl2-bin}); without it, starting fails with {@link SaslNotInstalledException}.
     */
    public MemcachedOptions withSasl(String username, String password) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, threads, extraArguments,
                new MemcachedSasl(username, password), tls);
    }

    /** Serves TLS only ({@code -Z}), as {@code tls} says. */
    public MemcachedOptions withTls(MemcachedTls tls) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, threads, extraArguments, sasl, tls);
    }
}
