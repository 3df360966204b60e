package dev.grizzlyboot.testsupport;

import java.util.List;

/**
 * How to start a memcached process: memory, maximum item size, worker threads and any extra
 * command-line arguments. Immutable; the {@code with...} methods return copies.
 *
 * @param memoryMegabytes  cache memory ({@code -m})
 * @param itemSizeMax      largest item, as memcached's {@code -I} takes it ("1m", "512k")
 * @param threads          worker threads ({@code -t})
 * @param extraArguments   anything else to pass
 */
public record MemcachedOptions(int memoryMegabytes, String itemSizeMax, int threads, List<String> extraArguments) {

    public MemcachedOptions {
        extraArguments = List.copyOf(extraArguments);
    }

    /** 64 MiB, 1 MiB items (memcached's default), 2 threads. */
    public static MemcachedOptions defaults() {
        return new MemcachedOptions(64, "1m", 2, List.of());
    }

    public MemcachedOptions withMemoryMegabytes(int megabytes) {
        return new MemcachedOptions(megabytes, itemSizeMax, threads, extraArguments);
    }

    public MemcachedOptions withItemSizeMax(String size) {
        return new MemcachedOptions(memoryMegabytes, size, threads, extraArguments);
    }

    public MemcachedOptions withThreads(int count) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, count, extraArguments);
    }

    public MemcachedOptions withExtraArguments(String... arguments) {
        return new MemcachedOptions(memoryMegabytes, itemSizeMax, threads, List.of(arguments));
    }
}
