package dev.grizzlyboot.memcached;

import java.io.IOException;
import java.time.Duration;

import dev.grizzlyboot.testsupport.ChildJvm;

/**
 * A memcached client in a JVM of its own ({@link ChildJvm}) that resolves host names through the
 * test's {@link dev.grizzlyboot.testsupport.HostsFile}: built once for the {@code host:port} given
 * as the argument, it answers {@code set <key> <value>} with {@code OK}, {@code get <key>} with
 * {@code VALUE <value>} or {@code MISS}, and either with {@code FAILED <exception's simple name>:
 * <message>}. Operations run one at a time, on the thread that reads the requests.
 */
public final class ResolvingClientMain {

    private ResolvingClientMain() {
    }

    public static void main(String[] args) throws IOException {
        // Short back-offs and health checks: a test waits for the reconnect, and a few seconds is all it has.
        try (MemcachedClient client = MemcachedClient.builder().servers(args[0])
                .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200))
                .healthCheckInterval(Duration.ofMillis(50), Duration.ofMillis(200)).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            ChildJvm.serve(request -> {
                String[] words = request.split(" ");
                try {
                    if (words[0].equals("set")) {
                        blocking.set(words[1], words[2], Duration.ZERO);
                        return "OK";
                    }
                    Object value = blocking.get(words[1]);
                    return value == null ? "MISS" : "VALUE " + value;
                } catch (MemcachedException e) {
                    return "FAILED " + e.getClass().getSimpleName() + ": " + e.getMessage();
                }
            });
        }
    }
}
