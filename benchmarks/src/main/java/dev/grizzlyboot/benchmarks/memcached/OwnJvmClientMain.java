package dev.grizzlyboot.benchmarks.memcached;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The child JVM of the memcached benchmark for one client of our classpath when the run gives
 * every client a JVM of its own ({@code --jvm-per-client=true}): no JIT profile, heap or GC is
 * shared with the other clients. Arguments: the client (as {@link Contenders#factoryFor} names
 * it), key prefix, comma-separated {@code host:port} list, and optionally an operation timeout in
 * milliseconds.
 */
public final class OwnJvmClientMain {

    private OwnJvmClientMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4) {
            throw new IllegalArgumentException(
                    "usage: OwnJvmClientMain CLIENT PREFIX HOST:PORT[,HOST:PORT...] [TIMEOUT-MILLIS]");
        }
        ClientTarget target = new ClientTarget(List.of(args[2].split(",")),
                args.length == 4 ? Optional.of(Duration.ofMillis(Long.parseLong(args[3]))) : Optional.empty());
        ContenderProtocol.serveOnStdio(Contenders.factoryFor(args[0]).open(target), args[1]);
    }
}
