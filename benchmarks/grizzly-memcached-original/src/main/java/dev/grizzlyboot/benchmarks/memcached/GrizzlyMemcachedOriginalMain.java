package dev.grizzlyboot.benchmarks.memcached;

import java.util.List;
import java.util.OptionalLong;

/**
 * The child JVM of the memcached benchmark for the original grizzly-memcached: opens the client
 * against the given servers and serves {@link ContenderProtocol} on stdin/stdout until told to
 * quit. Arguments: key prefix, comma-separated {@code host:port} list, and optionally an operation
 * timeout in milliseconds.
 */
public final class GrizzlyMemcachedOriginalMain {

    private GrizzlyMemcachedOriginalMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3) {
            throw new IllegalArgumentException(
                    "usage: GrizzlyMemcachedOriginalMain PREFIX HOST:PORT[,HOST:PORT...] [TIMEOUT-MILLIS]");
        }
        ContenderProtocol.serveOnStdio(new GrizzlyMemcachedOriginalBench(List.of(args[1].split(",")),
                args.length == 3 ? OptionalLong.of(Long.parseLong(args[2])) : OptionalLong.empty()), args[0]);
    }
}
