package dev.grizzlyboot.benchmarks.memcached;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;

/**
 * The child JVM of the memcached benchmark for the original grizzly-memcached: opens the client
 * against the given servers and serves {@link ContenderProtocol} on stdin/stdout until told to
 * quit. Arguments: key prefix, comma-separated {@code host:port} list, and optionally an operation
 * timeout in milliseconds. Anything else the JVM or the client prints goes to stderr, so stdout
 * carries only the protocol.
 */
public final class GrizzlyMemcachedOriginalMain {

    private GrizzlyMemcachedOriginalMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3) {
            throw new IllegalArgumentException(
                    "usage: GrizzlyMemcachedOriginalMain PREFIX HOST:PORT[,HOST:PORT...] [TIMEOUT-MILLIS]");
        }
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (InProcessContender contender = new InProcessContender(
                new GrizzlyMemcachedOriginalBench(List.of(args[1].split(",")),
                        args.length == 3 ? OptionalLong.of(Long.parseLong(args[2])) : OptionalLong.empty()), args[0])) {
            ContenderProtocol.serve(contender, commands, protocol);
        }
        System.exit(0);
    }
}
