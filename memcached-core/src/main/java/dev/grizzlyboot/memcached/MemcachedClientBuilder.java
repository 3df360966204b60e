package dev.grizzlyboot.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;

import dev.grizzlyboot.memcached.cluster.KetamaNaming;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.internal.cluster.ClusterSettings;
import dev.grizzlyboot.memcached.internal.connection.ConnectionSecurity;
import dev.grizzlyboot.memcached.internal.connection.PoolSettings;
import dev.grizzlyboot.memcached.internal.connection.SaslCredentials;
import dev.grizzlyboot.memcached.internal.connection.TlsSettings;
import dev.grizzlyboot.memcached.transcoder.DefaultTranscoder;
import dev.grizzlyboot.memcached.transcoder.Transcoder;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Configures and builds a {@link MemcachedClient}. Every setting has a default fit for a single
 * application talking to memcached on its own network; only {@link #servers} is required.
 * Not thread-safe; a builder may build several independent clients.
 */
public final class MemcachedClientBuilder {

    /** Longer than most loopback round trips on a quiet machine (docs/benchmarks.md, "Tenth round"). */
    private static final Duration DEFAULT_CALLER_SPIN = Duration.ofNanos(100_000);

    private final List<ServerAddress> servers = new ArrayList<>();
    private final Map<ServerAddress, Integer> weights = new HashMap<>();
    private Duration operationTimeout = Duration.ofSeconds(1);
    private Duration connectTimeout = Duration.ofSeconds(1);
    private Duration idleTimeout = Duration.ofMinutes(1);
    private Duration reconnectBackoff = Duration.ofMillis(100);
    private Duration maxReconnectBackoff = Duration.ofSeconds(5);
    private int minConnections = 2;
    private int maxConnections = 2;
    private int pipelineDepth = 32;
    private IoStrategy ioStrategy = IoStrategy.SAME_THREAD;
    private int ioThreads = Math.min(2, Runtime.getRuntime().availableProcessors());
    private int workerThreads = Math.max(2, Runtime.getRuntime().availableProcessors());
    private int maxItemSize = 1024 * 1024;
    private Duration callerSpin = Runtime.getRuntime().availableProcessors() > 1 ? DEFAULT_CALLER_SPIN : Duration.ZERO;
    private Transcoder<Object> transcoder = DefaultTranscoder.create();
    private boolean failover = true;
    private int failureThreshold = 3;
    private Duration firstHealthCheck = Duration.ofMillis(100);
    private Duration maxHealthCheck = Duration.ofSeconds(1);
    private int replicas;
    private KetamaNaming ketamaNaming = KetamaNaming.HOST_PORT;
    private Duration failbackFlushAfter = Duration.ZERO;
    private Duration nearCacheTtl;
    private long nearCacheMaxEntries;
    /** Typed as Object so that this class never names a Micrometer type unless a registry is given. */
    private Object meterRegistry;
    private SaslCredentials credentials;
    private TlsSettings tls;
    /** {@code null}: text unless there are credentials. */
    private Boolean textBulkReads;

    MemcachedClientBuilder() {
    }

    /**
     * Servers as {@code host:port} strings; a single string may hold a comma-separated list.
     *
     * @param addresses {@code host:port} strings, added to those already given
     * @return this builder
     */
    public MemcachedClientBuilder servers(String... addresses) {
        return servers(Arrays.asList(addresses));
    }

    /**
     * Servers as {@code host:port} strings; each may hold a comma-separated list.
     *
     * @param addresses {@code host:port} strings, added to those already given
     * @return this builder
     */
    public MemcachedClientBuilder servers(List<String> addresses) {
        return serverAddresses(ServerAddress.parseAll(addresses));
    }

    /**
     * Servers as parsed addresses.
     *
     * @param addresses the servers, added to those already given
     * @return this builder
     */
    public MemcachedClientBuilder serverAddresses(Collection<ServerAddress> addresses) {
        servers.addAll(addresses);
        return this;
    }

    /**
     * Gives a server a Ketama weight (default 1): its share of the keys is its weight over the
     * total, placed as spymemcached's weighted Ketama places them.
     *
     * @param server the server as {@code host:port}, as given to {@link #servers}
     * @param weight its weight (at least 1)
     * @return this builder
     */
    public MemcachedClientBuilder weight(String server, int weight) {
        weights.put(ServerAddress.parse(server), atLeastOne(weight, "weight"));
        return this;
    }

    /**
     * How servers are named on the Ketama ring (default {@link KetamaNaming#HOST_PORT}); choose
     * {@link KetamaNaming#LIBMEMCACHED} to share keys with libmemcached-based clients on port 11211.
     *
     * @param naming how each server's points on the ring are named
     * @return this builder
     */
    public MemcachedClientBuilder ketamaNaming(KetamaNaming naming) {
        this.ketamaNaming = Objects.requireNonNull(naming, "ketamaNaming");
        return this;
    }

    /**
     * Whether a failed server leaves the ring, its keys going to the next servers (default
     * {@code true}). With {@code false}, operations on a failed server's keys fail at once with
     * {@link ServerUnavailableException} until it is back (or go to a replica, see {@link #replicas}).
     *
     * @param enabled {@code false} to keep a failed server's keys on it
     * @return this builder
     */
    public MemcachedClientBuilder failover(boolean enabled) {
        this.failover = enabled;
        return this;
    }

    /**
     * Consecutive connect failures, connections closed by the server (reset, end of stream) or
     * operation timeouts that mark a server failed (default 3); any answer resets the count.
     * Timeouts found right after the client itself was stalled (a long GC pause, a starved CPU:
     * its sweeper ran far later than its tick) do not count.
     *
     * @param failures how many in a row (at least 1)
     * @return this builder
     */
    public MemcachedClientBuilder failureThreshold(int failures) {
        this.failureThreshold = atLeastOne(failures, "failureThreshold");
        return this;
    }

    /**
     * How often a failed server is checked (a VERSION request): first after {@code first}
     * (default 100 ms), then doubling up to {@code max} (default 1 s). It rejoins the ring on the
     * first answer.
     *
     * @param first the delay before the first check (positive)
     * @param max the longest delay between checks (positive)
     * @return this builder
     */
    public MemcachedClientBuilder healthCheckInterval(Duration first, Duration max) {
        this.firstHealthCheck = positive(first, "healthCheckInterval first");
        this.maxHealthCheck = positive(max, "healthCheckInterval max");
        return this;
    }

    /**
     * Whether a failed server's data is flushed when it answers again, before it takes traffic
     * (default {@code true}). While it was failed, its keys were written on other servers (or the
     * writes failed), so what it still holds may be older than what callers wrote since: without
     * the flush, reads can return those stale values. The cost is a cold start for that server's
     * keys, which a restarted server has anyway.
     *
     * @param enabled {@code false} to keep a returning server's data as it is
     * @return this builder
     */
    public MemcachedClientBuilder failbackFlush(boolean enabled) {
        this.failbackFlushAfter = enabled ? Duration.ZERO : null;
        return this;
    }

    /**
     * Flushes a returning server only if it was failed for at least {@code minimumOutage}: for
     * deployments that accept stale reads after short outages to keep the server's data.
     *
     * @param minimumOutage the shortest outage after which the server is flushed (not negative)
     * @return this builder
     */
    public MemcachedClientBuilder failbackFlush(Duration minimumOutage) {
        if (minimumOutage == null || minimumOutage.isNegative()) {
            throw new IllegalArgumentException("failbackFlush minimumOutage must be >= 0, was " + minimumOutage);
        }
        this.failbackFlushAfter = minimumOutage;
        return this;
    }

    /**
     * Extra copies of every write, on the next distinct servers of the ring (default 0). Reads go
     * to the key's owner and, while it is failed, to a replica. A write completes when every copy
     * has answered; its result is the owner's.
     *
     * @param count how many copies besides the owner's (not negative)
     * @return this builder
     */
    public MemcachedClientBuilder replicas(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("replicas must be >= 0, was " + count);
        }
        this.replicas = count;
        return this;
    }

    /**
     * How long an operation may wait for its answer before it fails with a timeout (default 1 s).
     *
     * @param timeout the longest wait for an answer (positive)
     * @return this builder
     */
    public MemcachedClientBuilder operationTimeout(Duration timeout) {
        this.operationTimeout = positive(timeout, "operationTimeout");
        return this;
    }

    /**
     * How long opening a connection may take (default 1 s).
     *
     * @param timeout the longest a connect may take (positive)
     * @return this builder
     */
    public MemcachedClientBuilder connectTimeout(Duration timeout) {
        this.connectTimeout = positive(timeout, "connectTimeout");
        return this;
    }

    /**
     * How long a connection above the minimum may stay idle before it is closed (default 1 min).
     *
     * @param timeout the longest idle time (positive)
     * @return this builder
     */
    public MemcachedClientBuilder idleTimeout(Duration timeout) {
        this.idleTimeout = positive(timeout, "idleTimeout");
        return this;
    }

    /**
     * After a failed connect, how long to fail operations fast before trying again (default
     * 100 ms, doubling per failure up to {@code max}, default 5 s).
     *
     * @param first the wait after the first failed connect (positive)
     * @param max the longest wait (positive)
     * @return this builder
     */
    public MemcachedClientBuilder reconnectBackoff(Duration first, Duration max) {
        this.reconnectBackoff = positive(first, "reconnectBackoff");
        this.maxReconnectBackoff = positive(max, "maxReconnectBackoff");
        return this;
    }

    /**
     * Connections per server: kept open at least {@code min} (default 2), at most {@code max} (default 2).
     * memcached serves each connection on one of its worker threads, so two connections opened
     * together let a server use two of them from the first request (a second connection opened
     * only under load is rarely needed by bulk calls, which fill one connection's pipeline slowly);
     * more connections each carry fewer requests per write and cost CPU on both sides
     * (docs/benchmarks.md, knob sweep). Single requests (gets, stores, deletes, counters) stay on
     * the oldest connection while it has fewer than {@link #pipelineDepth(int) pipelineDepth}
     * pending, and bulk writes stay there at any depth, as memcached's item writes take its global
     * slab and LRU locks and slow each other down from two of its threads at once, and requests
     * spread thin cost it more per request; bulk reads go to the connection with the fewest pending
     * operations. Each client holds {@code min} connections per server even
     * when idle: with many application instances, mind memcached's connection limit ({@code -c},
     * 1,024 by default).
     *
     * @param min the connections each pool keeps open
     * @param max the most connections each pool opens
     * @return this builder
     */
    public MemcachedClientBuilder connectionsPerServer(int min, int max) {
        this.minConnections = min;
        this.maxConnections = max;
        return this;
    }

    /**
     * Whether getMulti and getsMulti read with the text protocol's multi-key {@code get} (default
     * {@code true}, unless {@link #authentication} is set). memcached serves one {@code get k1 … kN}
     * for about half the CPU per key that a binary quiet get per key costs it, so under load bulk
     * reads come back faster and leave the server more room. They go on text connections of their
     * own, next to the binary ones: opened on the first bulk read, sized by
     * {@link #connectionsPerServer} as the binary ones are, and counted in each server's open
     * connections. memcached's SASL is binary only, so with {@link #authentication} bulk reads stay
     * binary; asking for both fails at {@link #build}. Every other call is binary either way.
     *
     * @param enabled {@code false} to send bulk reads as binary quiet gets on the binary connections
     * @return this builder
     */
    public MemcachedClientBuilder textBulkReads(boolean enabled) {
        this.textBulkReads = enabled;
        return this;
    }

    /**
     * Pending operations a connection carries before the pool opens another (default 32).
     *
     * @param depth how many requests one connection has in flight before another is opened
     * @return this builder
     */
    public MemcachedClientBuilder pipelineDepth(int depth) {
        this.pipelineDepth = depth;
        return this;
    }

    /**
     * How long a {@linkplain MemcachedClient#blocking() blocking} caller that is the only one
     * waiting on this client spins for its answer before it parks (default 100 µs; zero on a
     * one-core machine). Spinning spares a sleep and a wake-up per call, which is most of a
     * single caller's latency on a fast network, at the price of the spinning core. Only single-key
     * calls spin, never while another blocking caller waits; a spin that ends without the answer
     * makes the next calls park at once (1, 2, 4, ... up to 1,024 of them), so a slow server costs
     * little. {@link Duration#ZERO} turns it off.
     *
     * @param window the longest spin per call, zero for none
     * @return this builder
     */
    public MemcachedClientBuilder callerSpin(Duration window) {
        if (window == null || window.isNegative() || window.compareTo(Duration.ofMillis(1)) > 0) {
            throw new IllegalArgumentException("callerSpin must be between zero and 1 ms, was " + window);
        }
        this.callerSpin = window;
        return this;
    }

    /**
     * Which threads handle responses (default {@link IoStrategy#SAME_THREAD}).
     *
     * @param strategy the Grizzly I/O strategy
     * @return this builder
     */
    public MemcachedClientBuilder ioStrategy(IoStrategy strategy) {
        this.ioStrategy = Objects.requireNonNull(strategy, "ioStrategy");
        return this;
    }

    /**
     * Selector threads (default: 2, or 1 on a single core).
     *
     * @param count how many selector threads (at least 1)
     * @return this builder
     */
    public MemcachedClientBuilder ioThreads(int count) {
        this.ioThreads = atLeastOne(count, "ioThreads");
        return this;
    }

    /**
     * Worker threads for the worker-thread and leader-follower strategies (default: cores, at least 2).
     *
     * @param count how many worker threads (at least 1)
     * @return this builder
     */
    public MemcachedClientBuilder workerThreads(int count) {
        this.workerThreads = atLeastOne(count, "workerThreads");
        return this;
    }

    /**
     * memcached's item size limit in bytes (default 1 MiB, memcached's own default; set it to
     * match a server started with {@code -I}). An item is the value plus its key and a 59-byte
     * header (63 with flags), as memcached counts it: a value that would make a larger item fails
     * with {@link ValueTooLargeException} unsent (a {@code set} or {@code setMulti} first deletes
     * the key's old value, as memcached does when it refuses one).
     *
     * @param bytes the server's item size limit (at least 1)
     * @return this builder
     */
    public MemcachedClientBuilder maxItemSize(int bytes) {
        this.maxItemSize = atLeastOne(bytes, "maxItemSize");
        return this;
    }

    /**
     * The transcoder for operations that take none (default {@link DefaultTranscoder#create()}).
     *
     * @param transcoder encodes and decodes values of any type
     * @return this builder
     */
    public MemcachedClientBuilder transcoder(Transcoder<Object> transcoder) {
        this.transcoder = Objects.requireNonNull(transcoder, "transcoder");
        return this;
    }

    /**
     * Puts an in-process cache (Caffeine, which must be on the class path) in front of memcached
     * (default: none). Reads use a local copy up to {@code ttl} old, so a write by another client
     * may stay unseen for up to {@code ttl}; writes through this client drop the local copy, so this
     * client always reads its own writes. Keep {@code ttl} short (seconds).
     *
     * @param ttl        how long a local copy is used
     * @param maxEntries most keys kept locally (least recently used go first)
     * @return this builder
     */
    public MemcachedClientBuilder nearCache(Duration ttl, long maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("nearCache maxEntries must be >= 1, was " + maxEntries);
        }
        try {
            Class.forName("com.github.benmanes.caffeine.cache.Caffeine", false, MemcachedClientBuilder.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the near cache needs Caffeine: add com.github.ben-manes.caffeine:caffeine", e);
        }
        this.nearCacheTtl = positive(ttl, "nearCache ttl");
        this.nearCacheMaxEntries = maxEntries;
        return this;
    }

    /**
     * Publishes the client's meters to {@code registry} (default: none, and then nothing is
     * measured and Micrometer, an optional dependency, need not be on the class path):
     * {@code memcached.client.requests} (a timer tagged {@code operation} and {@code outcome}),
     * per-server {@code memcached.client.connections}, {@code memcached.client.requests.in.flight},
     * {@code memcached.client.server.failures} and {@code memcached.client.server.failbacks}, and,
     * with a near cache, {@code memcached.client.near.gets} and {@code memcached.client.near.size}.
     * The meters are removed when the client is closed.
     *
     * @param registry where the meters are registered
     * @return this builder
     */
    public MemcachedClientBuilder meterRegistry(MeterRegistry registry) {
        this.meterRegistry = Objects.requireNonNull(registry, "meterRegistry");
        return this;
    }

    /**
     * Logs in to every server with SASL PLAIN as {@code username} (default: no login, for servers
     * started without {@code -S}). Every new connection (at start, when the pool grows, on
     * reconnect and for health checks) authenticates before it carries requests. A refused login
     * fails the waiting calls with {@link AuthenticationException}, which names the server and the
     * user but never the password, and counts as a failed connect: the client backs off
     * ({@link #reconnectBackoff}) rather than retrying at once. PLAIN sends the password as it is,
     * so use it over TLS ({@code tls}) or a trusted network.
     *
     * @param username the SASL user name
     * @param password the password (kept out of messages and {@code toString})
     * @return this builder
     */
    public MemcachedClientBuilder authentication(String username, String password) {
        this.credentials = new SaslCredentials(Objects.requireNonNull(username, "username"),
                Objects.requireNonNull(password, "password"));
        return this;
    }

    /**
     * Speaks TLS to every server (memcached started with {@code -Z}), with host-name verification:
     * the server's certificate must be trusted by {@code context} and name the host as configured
     * in {@link #servers} (a DNS name or an IP address in its subject alternative names). A client
     * certificate for mutual TLS comes from the context's key managers. A failed handshake fails
     * the waiting calls with {@link TlsHandshakeException}; there is no fallback to plaintext.
     *
     * @param context trusts the servers' certificates (and holds the client's own, for mutual TLS)
     * @return this builder
     */
    public MemcachedClientBuilder tls(SSLContext context) {
        Objects.requireNonNull(context, "context");
        return tls(() -> context, true);
    }

    /**
     * Like {@link #tls(SSLContext)}, but asks {@code context} for the context on every new
     * connection, so that renewed certificates apply to the connections opened after the renewal
     * (connections already open keep theirs); and {@code verifyHostName} {@code false} accepts any
     * trusted certificate whatever host it names (for servers reached by an address their
     * certificate does not list; weaker, as any server holding a certificate from the same CA
     * passes).
     *
     * @param context gives the context for each new connection
     * @param verifyHostName {@code false} to accept a trusted certificate for any host
     * @return this builder
     */
    public MemcachedClientBuilder tls(Supplier<SSLContext> context, boolean verifyHostName) {
        this.tls = new TlsSettings(context, verifyHostName);
        return this;
    }

    /**
     * Builds the client and starts opening its connections; it does not wait for them. Close the
     * client when done.
     *
     * @return a new client, connecting in the background
     * @throws IllegalStateException if no server is given, a server is listed twice, or text bulk
     *                               reads are asked for with authentication
     */
    public MemcachedClient build() {
        if (servers.isEmpty()) {
            throw new IllegalStateException("no memcached servers configured");
        }
        if (servers.stream().distinct().count() != servers.size()) {
            throw new IllegalStateException("a server is listed twice: " + servers);
        }
        if (credentials != null && Boolean.TRUE.equals(textBulkReads)) {
            throw new IllegalStateException("textBulkReads(true) cannot be combined with authentication: memcached's SASL is "
                    + "binary only, and a server that requires it refuses the text protocol");
        }
        PoolSettings pool = new PoolSettings(minConnections, maxConnections, pipelineDepth, connectTimeout,
                idleTimeout, reconnectBackoff, maxReconnectBackoff);
        ClusterSettings cluster = new ClusterSettings(failover, failureThreshold, firstHealthCheck, maxHealthCheck,
                operationTimeout, replicas, ketamaNaming, failbackFlushAfter);
        return new MemcachedClient(List.copyOf(servers), Map.copyOf(weights), pool, cluster, operationTimeout, ioStrategy,
                ioThreads, workerThreads, maxItemSize, transcoder,
                nearCacheTtl == null ? NearCache.NONE : new CaffeineNearCache(nearCacheTtl, nearCacheMaxEntries),
                meterRegistry == null ? ClientMeters.NONE : MicrometerClientMeters.of(meterRegistry),
                new ConnectionSecurity(credentials, tls), callerSpin,
                textBulkReads == null ? credentials == null : textBulkReads);
    }

    private static Duration positive(Duration value, String name) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }

    private static int atLeastOne(int value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, was " + value);
        }
        return value;
    }
}
