package dev.grizzlyboot.examples.quickstart;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.grizzlyboot.memcached.BlockingMemcachedClient;
import dev.grizzlyboot.memcached.BulkResult;
import dev.grizzlyboot.memcached.CasValue;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.MemcachedNotInstalledException;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedServers;

/**
 * Plain-Java tour of the memcached client: starts two local memcached processes (or uses the
 * servers in {@code MEMCACHED_SERVERS}), then runs single and bulk operations and prints their
 * timings. Run it with {@code ./mvnw -q -pl examples/memcached-quickstart -am -DskipTests verify exec:java}.
 */
public final class MemcachedQuickstart {

    private static final int BULK_KEYS = 1_000;

    private MemcachedQuickstart() {
    }

    public static void main(String[] args) throws Exception {
        String configured = System.getenv("MEMCACHED_SERVERS");
        MemcachedServers local = null;
        String servers;
        if (configured != null && !configured.isBlank()) {
            servers = configured;
        } else {
            try {
                local = MemcachedServers.start(2, MemcachedOptions.defaults());
            } catch (MemcachedNotInstalledException e) {
                System.err.println(e.getMessage());
                System.exit(1);
                return;
            }
            servers = local.addressList();
            System.out.println("Started local memcached processes at " + servers);
        }
        try (MemcachedClient client = MemcachedClient.builder().servers(servers).build()) {
            tour(client);
        } finally {
            if (local != null) {
                local.close();
            }
        }
    }

    private static void tour(MemcachedClient client) throws Exception {
        BlockingMemcachedClient memcached = client.blocking();
        System.out.println("Servers: " + memcached.version());

        System.out.println();
        System.out.println("== single operations ==");
        timed("set greeting", () -> {
            memcached.set("greeting", "Hello, memcached", Duration.ofMinutes(5));
            return "stored";
        });
        timed("get greeting", () -> memcached.get("greeting"));
        timed("get missing key", () -> memcached.get("no-such-key"));
        timed("add greeting (exists)", () -> memcached.add("greeting", "ignored", Duration.ZERO));
        timed("incr visits (created at 1)", () -> memcached.incr("visits", 1, 1, Duration.ZERO));
        timed("incr visits", () -> memcached.incr("visits", 1));
        CasValue<Object> versioned = timed("gets greeting", () -> memcached.gets("greeting"));
        timed("cas greeting with its token", () -> memcached.cas("greeting", "Hello again", versioned.cas(), Duration.ZERO));
        timed("cas greeting with the stale token", () -> memcached.cas("greeting", "lost", versioned.cas(), Duration.ZERO));
        timed("server of 'greeting'", () -> client.serverFor("greeting"));

        System.out.println();
        System.out.println("== " + BULK_KEYS + " keys: looped singles vs one bulk call ==");
        Map<String, Object> values = new LinkedHashMap<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < BULK_KEYS; i++) {
            keys.add("item:" + i);
            values.put("item:" + i, "value " + i);
        }
        timed("looped set x" + BULK_KEYS, () -> {
            values.forEach((key, value) -> memcached.set(key, value, Duration.ofMinutes(5)));
            return "done";
        });
        timed("setMulti of " + BULK_KEYS, () -> summary(memcached.setMulti(values, Duration.ofMinutes(5))));
        timed("looped get x" + BULK_KEYS, () -> {
            int hits = 0;
            for (String key : keys) {
                hits += memcached.get(key) != null ? 1 : 0;
            }
            return hits + " hits";
        });
        List<String> withMisses = new ArrayList<>(keys);
        withMisses.add("item:missing");
        timed("getMulti of " + withMisses.size(), () -> summary(memcached.getMulti(withMisses)));
        timed("deleteMulti of " + BULK_KEYS, () -> summary(memcached.deleteMulti(keys)));
    }

    private static String summary(BulkResult<Object> result) {
        Map<Object, Long> outcomes = new LinkedHashMap<>();
        result.asMap().values().forEach(r -> outcomes.merge(r.outcome(), 1L, Long::sum));
        return outcomes.toString();
    }

    private static <T> T timed(String label, Callable<T> call) throws Exception {
        long start = System.nanoTime();
        T result = call.call();
        double millis = (System.nanoTime() - start) / 1_000_000.0;
        System.out.printf("%-36s %9.3f ms  -> %s%n", label, millis, result);
        return result;
    }
}
