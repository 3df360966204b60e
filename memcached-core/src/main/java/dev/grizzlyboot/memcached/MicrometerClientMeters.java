package dev.grizzlyboot.memcached;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.memcached.internal.cluster.Cluster;
import dev.grizzlyboot.memcached.internal.connection.ConnectionPool;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The client's meters in a Micrometer {@link MeterRegistry}: {@code memcached.client.requests}
 * (a timer by operation and outcome), per-server connection, in-flight, failure and failback
 * meters, and the near cache's hits, misses and size. Every meter a request touches is built up
 * front (one timer per operation and outcome), so a request costs two clock reads and one
 * {@link Timer#record}, never a registry lookup. Loaded only when a registry is given.
 * Thread-safe.
 */
final class MicrometerClientMeters implements ClientMeters {

    static final String REQUESTS = "memcached.client.requests";

    /** The operations {@link MemcachedClient} names; others get their timers on first use. */
    private static final List<String> OPERATIONS = List.of("get", "gets", "getAndTouch", "touch", "set", "add",
            "replace", "append", "prepend", "cas", "delete", "incr", "decr", "getMulti", "getsMulti", "setMulti",
            "deleteMulti", "casMulti", "noop", "version", "flushAll");

    /** Outcome tag values, indexed by {@link #outcome}. */
    private static final String[] OUTCOMES = {"success", "timeout", "connection_error", "server_error", "client_error"};

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Timer[]> timers = new ConcurrentHashMap<>();
    private final List<Meter> clientMeters = new CopyOnWriteArrayList<>();
    /** Guarded by itself: changed only when the server list changes. */
    private final Map<ServerAddress, ServerMeters> servers = new HashMap<>();

    private MicrometerClientMeters(MeterRegistry registry) {
        this.registry = registry;
        OPERATIONS.forEach(operation -> timers.put(operation, timersOf(operation)));
    }

    /** Meters in {@code registry}, a {@link MeterRegistry} the builder holds as an {@code Object}. */
    static ClientMeters of(Object registry) {
        return new MicrometerClientMeters((MeterRegistry) registry);
    }

    @Override
    public long start() {
        return System.nanoTime();
    }

    @Override
    public <T> CompletableFuture<T> record(String operation, long startNanos, CompletableFuture<T> result) {
        Timer[] byOutcome = timers.get(operation);
        Timer[] timed = byOutcome != null ? byOutcome : timers.computeIfAbsent(operation, this::timersOf);
        // A side branch, so the caller's future and its exceptions stay exactly as they were.
        result.whenComplete((value, error) -> timed[outcome(error)].record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS));
        return result;
    }

    @Override
    public void bind(Cluster cluster, NearCache near) {
        cluster.addServerListListener(() -> serversChanged(cluster.pools()));
        serversChanged(cluster.pools());
        cluster.addListener(this::stateChanged);
        if (near.enabled()) {
            clientMeters.add(FunctionCounter.builder("memcached.client.near.gets", near, NearCache::hitCount)
                    .tag("result", "hit").description("Reads answered by the near cache").register(registry));
            clientMeters.add(FunctionCounter.builder("memcached.client.near.gets", near, NearCache::missCount)
                    .tag("result", "miss").description("Reads the near cache could not answer").register(registry));
            clientMeters.add(Gauge.builder("memcached.client.near.size", near, NearCache::size)
                    .description("Keys held by the near cache").strongReference(true).register(registry));
        }
    }

    @Override
    public void close() {
        timers.values().forEach(byOutcome -> List.of(byOutcome).forEach(registry::remove));
        clientMeters.forEach(registry::remove);
        synchronized (servers) {
            servers.values().forEach(ServerMeters::remove);
            servers.clear();
        }
    }

    private Timer[] timersOf(String operation) {
        Timer[] byOutcome = new Timer[OUTCOMES.length];
        for (int i = 0; i < OUTCOMES.length; i++) {
            byOutcome[i] = Timer.builder(REQUESTS).tag("operation", operation).tag("outcome", OUTCOMES[i])
                    .description("memcached requests, from the call until the answer or failure").register(registry);
        }
        return byOutcome;
    }

    private static int outcome(Throwable error) {
        if (error == null) {
            return 0;
        }
        Throwable cause = Answers.causeOf(error);
        if (cause instanceof MemcachedTimeoutException) {
            return 1;
        }
        if (cause instanceof MemcachedConnectionException) {
            return 2;
        }
        if (cause instanceof MemcachedStatusException) {
            return 3;
        }
        return 4;
    }

    /** Registers the meters of new servers (or of a server's new pool) and removes those of servers gone. */
    private void serversChanged(Map<ServerAddress, ConnectionPool> pools) {
        synchronized (servers) {
            List<ServerAddress> gone = new ArrayList<>(servers.keySet());
            gone.removeAll(pools.keySet());
            gone.forEach(server -> servers.remove(server).remove());
            pools.forEach((server, pool) -> {
                ServerMeters current = servers.get(server);
                if (current == null || current.pool != pool) {
                    if (current != null) {
                        current.remove();
                    }
                    servers.put(server, new ServerMeters(server, pool));
                }
            });
        }
    }

    private void stateChanged(ServerState state) {
        ServerMeters meters;
        synchronized (servers) {
            meters = servers.get(state.server());
        }
        if (meters != null) {
            (state.failed() ? meters.failures : meters.failbacks).increment();
        }
    }

    /** One server's meters, tagged {@code server=host:port}. */
    private final class ServerMeters {

        final ConnectionPool pool;
        final Counter failures;
        final Counter failbacks;
        private final List<Meter> all = new ArrayList<>();

        ServerMeters(ServerAddress server, ConnectionPool pool) {
            this.pool = pool;
            String tag = server.toString();
            all.add(Gauge.builder("memcached.client.connections", pool, ConnectionPool::openConnections).tag("server", tag)
                    .description("Open connections to the server").register(registry));
            all.add(Gauge.builder("memcached.client.requests.in.flight", pool, ConnectionPool::pending).tag("server", tag)
                    .description("Requests queued for the server or waiting for its answer").register(registry));
            this.failures = Counter.builder("memcached.client.server.failures").tag("server", tag)
                    .description("Times the server was marked failed").register(registry);
            this.failbacks = Counter.builder("memcached.client.server.failbacks").tag("server", tag)
                    .description("Times a failed server answered again and came back").register(registry);
            all.add(failures);
            all.add(failbacks);
        }

        void remove() {
            all.forEach(registry::remove);
        }
    }
}
