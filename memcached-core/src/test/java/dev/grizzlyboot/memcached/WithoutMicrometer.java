package dev.grizzlyboot.memcached;

import java.time.Duration;
import java.util.function.Function;

/** A round trip through a client built without a meter registry; run in a class loader that has no Micrometer. */
final class WithoutMicrometer implements Function<String, Object> {

    @Override
    public Object apply(String server) {
        try (MemcachedClient client = MemcachedClient.builder().servers(server).build()) {
            client.blocking().set("without-micrometer", "works", Duration.ofMinutes(1));
            return client.blocking().get("without-micrometer");
        }
    }
}
