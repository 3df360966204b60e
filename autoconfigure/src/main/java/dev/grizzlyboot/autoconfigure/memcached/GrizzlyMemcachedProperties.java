package dev.grizzlyboot.autoconfigure.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.autoconfigure.internal.PropertyBounds;
import dev.grizzlyboot.memcached.IoStrategy;
import dev.grizzlyboot.memcached.cluster.KetamaNaming;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the memcached client and of the Spring cache on it, bound from
 * {@code grizzly.memcached.*}. Unset values keep the client's and the cache's own defaults.
 * A mutable bean filled in by Spring's binder at start-up; not meant to change afterwards.
 */
@ConfigurationProperties("grizzly.memcached")
public class GrizzlyMemcachedProperties {

    /**
     * memcached servers as host:port, as a comma-separated list or a YAML list; a host alone means
     * port 11211.
     */
    private List<String> servers = new ArrayList<>(List.of("127.0.0.1:11211"));

    /** How long an operation may wait for its answer before it fails with a timeout. */
    private Duration operationTimeout = Duration.ofSeconds(1);

    /** How long opening one connection may take. */
    private Duration connectTimeout = Duration.ofSeconds(1);

    /**
     * memcached's item size limit (its -I option): a value whose item (value, key and memcached's
     * item header) would be larger fails before it is sent.
     */
    private DataSize maxItemSize = DataSize.ofMegabytes(1);

    /** Which threads handle responses: Grizzly's same-thread, worker-thread or leader-follower strategy. */
    private IoStrategy ioStrategy = IoStrategy.SAME_THREAD;

    /** Grizzly selector threads. Default: 2, or 1 on a single core. */
    private Integer ioThreads;

    /** Worker threads for the worker-thread and leader-follower strategies. Default: the number of cores, at least 2. */
    private Integer workerThreads;

    /**
     * How long a blocking single-key call (the client's blocking API and the cache's reads and
     * writes) spins for its answer before it parks, while it is the only caller waiting; at most
     * 1ms, zero turns spinning off. Default: 100us, or 0 on a single core.
     */
    private Duration callerSpin;

    /**
     * Whether getMulti and getsMulti read with the text protocol's multi-key get, on text
     * connections of their own next to the binary ones (memcached serves it for about half the CPU
     * per key of binary quiet gets). Default: true, or false when a username is set, since
     * memcached's SASL is binary only.
     */
    private Boolean textBulkReads;

    private final Pool pool = new Pool();

    private final Cluster cluster = new Cluster();

    private final NearCache nearCache = new NearCache();

    private final Transcoder transcoder = new Transcoder();

    private final Cache cache = new Cache();

    /** SASL PLAIN user every connection logs in as (memcached -S). Unset: no login. */
    private String username;

    /** Password of the SASL user. */
    private String password;

    private final Ssl ssl = new Ssl();

    public List<String> getServers() {
        return servers;
    }

    public void setServers(List<String> servers) {
        this.servers = servers;
    }

    public Duration getOperationTimeout() {
        return operationTimeout;
    }

    public void setOperationTimeout(Duration operationTimeout) {
        this.operationTimeout = operationTimeout;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public DataSize getMaxItemSize() {
        return maxItemSize;
    }

    public void setMaxItemSize(DataSize maxItemSize) {
        PropertyBounds.fitsIntBytes(maxItemSize);
        this.maxItemSize = maxItemSize;
    }

    public IoStrategy getIoStrategy() {
        return ioStrategy;
    }

    public void setIoStrategy(IoStrategy ioStrategy) {
        this.ioStrategy = ioStrategy;
    }

    public Integer getIoThreads() {
        return ioThreads;
    }

    public void setIoThreads(Integer ioThreads) {
        this.ioThreads = ioThreads;
    }

    public Integer getWorkerThreads() {
        return workerThreads;
    }

    public void setWorkerThreads(Integer workerThreads) {
        this.workerThreads = workerThreads;
    }

    public Duration getCallerSpin() {
        return callerSpin;
    }

    public void setCallerSpin(Duration callerSpin) {
        this.callerSpin = callerSpin;
    }

    public Boolean getTextBulkReads() {
        return textBulkReads;
    }

    public void setTextBulkReads(Boolean textBulkReads) {
        this.textBulkReads = textBulkReads;
    }

    public Pool getPool() {
        return pool;
    }

    public Cluster getCluster() {
        return cluster;
    }

    public NearCache getNearCache() {
        return nearCache;
    }

    public Transcoder getTranscoder() {
        return transcoder;
    }

    public Cache getCache() {
        return cache;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public Ssl getSsl() {
        return ssl;
    }

    /** How keys are spread over the servers and what happens when one fails. */
    public static class Cluster {

        /**
         * Whether a failed server leaves the ring so that its keys go to the next servers. When
         * false, operations on its keys fail at once until it is back (or go to a replica).
         */
        private boolean failover = true;

        /** Consecutive connect failures or operation timeouts that mark a server failed. */
        private int failureThreshold = 3;

        /** Delay before the first health check of a failed server; doubles per failed check. */
        private Duration healthCheckInterval = Duration.ofMillis(100);

        /** Longest delay between health checks of a failed server. */
        private Duration maxHealthCheckInterval = Duration.ofSeconds(1);

        /** Extra copies of every write on the next distinct servers of the ring. */
        private int replicas = 0;

        /**
         * How servers are named on the Ketama ring: host-port (spymemcached with IP addresses) or
         * libmemcached (host alone on port 11211), to share keys with other clients.
         */
        private KetamaNaming ketamaNaming = KetamaNaming.HOST_PORT;

        /**
         * Ketama weights by server (host:port); a server's share of keys is its weight over the
         * total. Servers not listed weigh 1.
         */
        private Map<String, Integer> weights = new LinkedHashMap<>();

        private final FailbackFlush failbackFlush = new FailbackFlush();

        public FailbackFlush getFailbackFlush() {
            return failbackFlush;
        }

        public boolean isFailover() {
            return failover;
        }

        public void setFailover(boolean failover) {
            this.failover = failover;
        }

        public int getFailureThreshold() {
            return failureThreshold;
        }

        public void setFailureThreshold(int failureThreshold) {
            this.failureThreshold = failureThreshold;
        }

        public Duration getHealthCheckInterval() {
            return healthCheckInterval;
        }

        public void setHealthCheckInterval(Duration healthCheckInterval) {
            this.healthCheckInterval = healthCheckInterval;
        }

        public Duration getMaxHealthCheckInterval() {
            return maxHealthCheckInterval;
        }

        public void setMaxHealthCheckInterval(Duration maxHealthCheckInterval) {
            this.maxHealthCheckInterval = maxHealthCheckInterval;
        }

        public int getReplicas() {
            return replicas;
        }

        public void setReplicas(int replicas) {
            this.replicas = replicas;
        }

        public KetamaNaming getKetamaNaming() {
            return ketamaNaming;
        }

        public void setKetamaNaming(KetamaNaming ketamaNaming) {
            this.ketamaNaming = ketamaNaming;
        }

        public Map<String, Integer> getWeights() {
            return weights;
        }

        public void setWeights(Map<String, Integer> weights) {
            this.weights = weights;
        }
    }

    /** What happens to a failed server's data when it answers again. */
    public static class FailbackFlush {

        /**
         * Whether a failed server is flushed when it answers again, before it takes traffic: what it
         * holds may be older than writes made on other servers during the outage.
         */
        private boolean enabled = true;

        /** Shortest outage after which the returning server is flushed; 0 flushes after any outage. */
        private Duration minimumOutage = Duration.ZERO;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getMinimumOutage() {
            return minimumOutage;
        }

        public void setMinimumOutage(Duration minimumOutage) {
            this.minimumOutage = minimumOutage;
        }
    }

    /** The optional in-process tier in front of memcached (needs Caffeine on the class path). */
    public static class NearCache {

        /** Whether reads use an in-process copy (at most ttl old) before asking memcached. */
        private boolean enabled = false;

        /** How long an in-process copy is used; another client's write stays unseen this long. */
        private Duration ttl = Duration.ofSeconds(5);

        /** Most keys kept in process. */
        private long maxEntries = 10_000;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getTtl() {
            return ttl;
        }

        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        public long getMaxEntries() {
            return maxEntries;
        }

        public void setMaxEntries(long maxEntries) {
            this.maxEntries = maxEntries;
        }
    }

    /** The connection pool every server gets. */
    public static class Pool {

        /** Connections kept open per server, also when idle. */
        private int minConnections = 2;

        /** Most connections opened per server. */
        private int maxConnections = 2;

        /** Pending operations a connection carries before the pool opens another. */
        private int pipelineDepth = 32;

        /** How long a connection above the minimum may stay idle before it is closed. */
        private Duration idleTimeout = Duration.ofMinutes(1);

        /** After a failed connect, how long operations fail fast before the next attempt; doubles per failure. */
        private Duration reconnectBackoff = Duration.ofMillis(100);

        /** Upper bound of the doubling reconnect back-off. */
        private Duration maxReconnectBackoff = Duration.ofSeconds(5);

        public int getMinConnections() {
            return minConnections;
        }

        public void setMinConnections(int minConnections) {
            this.minConnections = minConnections;
        }

        public int getMaxConnections() {
            return maxConnections;
        }

        public void setMaxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
        }

        public int getPipelineDepth() {
            return pipelineDepth;
        }

        public void setPipelineDepth(int pipelineDepth) {
            this.pipelineDepth = pipelineDepth;
        }

        public Duration getIdleTimeout() {
            return idleTimeout;
        }

        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        public Duration getReconnectBackoff() {
            return reconnectBackoff;
        }

        public void setReconnectBackoff(Duration reconnectBackoff) {
            this.reconnectBackoff = reconnectBackoff;
        }

        public Duration getMaxReconnectBackoff() {
            return maxReconnectBackoff;
        }

        public void setMaxReconnectBackoff(Duration maxReconnectBackoff) {
            this.maxReconnectBackoff = maxReconnectBackoff;
        }
    }

    /** How values are turned into bytes: the client's default transcoder. */
    public static class Transcoder {

        /**
         * Classes that Java deserialization may create when reading cached objects, as ObjectInputFilter
         * patterns (com.example.model.* for a package, com.example.** with sub-packages). java.lang,
         * java.util, java.time and java.math are always allowed. Unset: the application's
         * auto-configuration packages (that of the @SpringBootApplication class) with their sub-packages.
         */
        private List<String> allowedClasses = new ArrayList<>();

        /** Values larger than this are gzip-compressed when that makes them smaller. */
        private DataSize compressionThreshold = DataSize.ofKilobytes(16);

        /**
         * Largest value a compressed item is inflated to; a larger one is a read error before it is all
         * inflated (a megabyte of gzip can hold a gigabyte of zeros). Values larger than this are stored
         * uncompressed, so that what is written can be read.
         */
        private DataSize maxUncompressedSize = DataSize.ofMegabytes(32);

        public List<String> getAllowedClasses() {
            return allowedClasses;
        }

        public void setAllowedClasses(List<String> allowedClasses) {
            this.allowedClasses = allowedClasses;
        }

        public DataSize getCompressionThreshold() {
            return compressionThreshold;
        }

        public void setCompressionThreshold(DataSize compressionThreshold) {
            PropertyBounds.fitsIntBytes(compressionThreshold);
            this.compressionThreshold = compressionThreshold;
        }

        public DataSize getMaxUncompressedSize() {
            return maxUncompressedSize;
        }

        public void setMaxUncompressedSize(DataSize maxUncompressedSize) {
            PropertyBounds.fitsIntBytes(maxUncompressedSize);
            this.maxUncompressedSize = maxUncompressedSize;
        }
    }

    /** The Spring cache on memcached: defaults for every cache, and settings per cache name. */
    public static class Cache {

        /** Time to live of cache entries; 0 means no expiry (and no jitter). */
        private Duration defaultTtl = Duration.ZERO;

        /**
         * Relative TTL jitter j, at least 0 and below 1: the effective TTL is uniform in [ttl*(1-j), ttl*(1+j)],
         * in whole seconds, at least 1 s. Spreads the expiry of entries written together.
         */
        private double ttlJitter = 0;

        /**
         * Prefix of every memcached key the caches write (followed by ':'), so several applications can share
         * servers. Empty for none.
         */
        private String keyPrefix = "";

        /** Whether a null returned by a cached method is stored (so the method is not called again). */
        private boolean cacheNullValues = true;

        /**
         * Whether memcached errors (timeouts, servers down) reach the caller. When false, they are logged
         * and a read counts as a miss, so the cached method runs.
         */
        private boolean propagateErrors = false;

        /**
         * How long a cache trusts its local copy of its generation (bumped by a clear) before reading it
         * again: the longest time a clear made by another instance can go unnoticed.
         */
        private Duration generationRefreshInterval = Duration.ofSeconds(1);

        /**
         * Settings per cache name, each with ttl, ttl-jitter, key-prefix and cache-null-values; what a cache
         * leaves unset falls back to the defaults above.
         */
        private Map<String, CacheSpec> caches = new LinkedHashMap<>();

        public Duration getDefaultTtl() {
            return defaultTtl;
        }

        public void setDefaultTtl(Duration defaultTtl) {
            PropertyBounds.notNegative(defaultTtl);
            this.defaultTtl = defaultTtl;
        }

        public double getTtlJitter() {
            return ttlJitter;
        }

        public void setTtlJitter(double ttlJitter) {
            PropertyBounds.jitter(ttlJitter);
            this.ttlJitter = ttlJitter;
        }

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public boolean isCacheNullValues() {
            return cacheNullValues;
        }

        public void setCacheNullValues(boolean cacheNullValues) {
            this.cacheNullValues = cacheNullValues;
        }

        public boolean isPropagateErrors() {
            return propagateErrors;
        }

        public void setPropagateErrors(boolean propagateErrors) {
            this.propagateErrors = propagateErrors;
        }

        public Duration getGenerationRefreshInterval() {
            return generationRefreshInterval;
        }

        public void setGenerationRefreshInterval(Duration generationRefreshInterval) {
            PropertyBounds.notNegative(generationRefreshInterval);
            this.generationRefreshInterval = generationRefreshInterval;
        }

        public Map<String, CacheSpec> getCaches() {
            return caches;
        }

        public void setCaches(Map<String, CacheSpec> caches) {
            this.caches = caches;
        }
    }

    /** Settings of one named cache; unset values fall back to the cache defaults. */
    public static class CacheSpec {

        /** Time to live of this cache's entries; 0 means no expiry. */
        private Duration ttl;

        /** Relative TTL jitter of this cache, at least 0 and below 1. */
        private Double ttlJitter;

        /** Key prefix of this cache. */
        private String keyPrefix;

        /** Whether this cache stores null values. */
        private Boolean cacheNullValues;

        public Duration getTtl() {
            return ttl;
        }

        public void setTtl(Duration ttl) {
            PropertyBounds.notNegative(ttl);
            this.ttl = ttl;
        }

        public Double getTtlJitter() {
            return ttlJitter;
        }

        public void setTtlJitter(Double ttlJitter) {
            PropertyBounds.jitter(ttlJitter);
            this.ttlJitter = ttlJitter;
        }

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public Boolean getCacheNullValues() {
            return cacheNullValues;
        }

        public void setCacheNullValues(Boolean cacheNullValues) {
            this.cacheNullValues = cacheNullValues;
        }
    }

    /** TLS to memcached started with -Z. */
    public static class Ssl {

        /**
         * Whether to speak TLS. Default: on when a bundle is set. Turned on without a bundle, the
         * JVM's default trust store decides which servers are trusted.
         */
        private Boolean enabled;

        /**
         * SSL bundle (spring.ssl.bundle.*) with the CAs to trust and, for mutual TLS, the client
         * certificate. New connections pick up a reloaded bundle.
         */
        private String bundle;

        /** Whether the server's certificate must name the host as configured in servers. */
        private boolean verifyHostname = true;

        public boolean isEnabled() {
            return enabled != null ? enabled : bundle != null;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getBundle() {
            return bundle;
        }

        public void setBundle(String bundle) {
            this.bundle = bundle;
        }

        public boolean isVerifyHostname() {
            return verifyHostname;
        }

        public void setVerifyHostname(boolean verifyHostname) {
            this.verifyHostname = verifyHostname;
        }
    }
}
