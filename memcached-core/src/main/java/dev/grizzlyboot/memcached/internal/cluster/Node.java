package dev.grizzlyboot.memcached.internal.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.memcached.MemcachedTimeoutException;
import dev.grizzlyboot.memcached.ServerUnavailableException;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.memcached.internal.connection.ConnectionPool;
import dev.grizzlyboot.memcached.internal.connection.PoolEvents;
import dev.grizzlyboot.memcached.internal.protocol.Opcode;
import dev.grizzlyboot.memcached.internal.protocol.Operation;
import dev.grizzlyboot.memcached.internal.protocol.Request;
import dev.grizzlyboot.memcached.internal.protocol.SingleOperation;

/**
 * One server of a {@link Cluster}: its connection pool, its weight, and its health. Counts
 * consecutive connect failures, connections lost to the server and timeouts (an answer resets the
 * count), tells the cluster when the count reaches the threshold, and while failed sends a health
 * check with doubling delays; when it answers, flushes the server (if configured) before it rejoins.
 *
 * <p>Threading: pool events arrive on I/O and sweeper threads; {@link #probeIfDue} runs on the
 * sweeper thread; status changes are made by the cluster under its lock.
 */
final class Node implements PoolEvents {

    private final ServerAddress address;
    private final int weight;
    private final Cluster cluster;
    private final ClusterSettings settings;
    private final ConnectionPool pool;
    private final AtomicInteger consecutiveFailures = new AtomicInteger();
    private volatile ServerState state;
    private volatile Exception lastError;
    private volatile boolean probing;
    private volatile long nextProbeNanos;
    private volatile long probeDelayNanos;
    private volatile long retiredAtNanos;
    private volatile long failedAtNanos;

    Node(ServerAddress address, int weight, Cluster cluster, ClusterSettings settings, Cluster.PoolFactory pools) {
        this.address = address;
        this.weight = weight;
        this.cluster = cluster;
        this.settings = settings;
        this.state = new ServerState(address, ServerState.Status.ACTIVE, Instant.now(), null);
        this.pool = pools.create(address, this);
    }

    ServerAddress address() {
        return address;
    }

    int weight() {
        return weight;
    }

    ConnectionPool pool() {
        return pool;
    }

    ServerState state() {
        ServerState current = state;
        Exception error = lastError;
        return error == current.lastError() ? current : new ServerState(address, current.status(), current.since(), error);
    }

    boolean failed() {
        return state.failed();
    }

    ServerUnavailableException unavailable() {
        Exception cause = lastError;
        return new ServerUnavailableException(address + " is marked failed since " + state.since()
                + (cause != null ? " (" + cause.getMessage() + ")" : ""), cause);
    }

    ServerUnavailableException unavailableAll() {
        return new ServerUnavailableException("every memcached server is marked failed", lastError);
    }

    @Override
    public void connectFailed(MemcachedException error) {
        failure(1, error);
    }

    @Override
    public void connectionLost(MemcachedException error) {
        failure(1, error);
    }

    @Override
    public void timedOut(int operations) {
        MemcachedTimeoutException error = new MemcachedTimeoutException(operations + " operation(s) on " + address + " timed out");
        if (cluster.clientStalled()) {
            // The client itself was paused or starved: the answers are likely waiting unread.
            lastError = error;
            return;
        }
        failure(operations, error);
    }

    @Override
    public boolean holdUnsent() {
        return movesUnsent() && !failed() && cluster.hasOtherLiveServer(this);
    }

    /**
     * A removed server's operations go where their keys go now, as every other client's do; with
     * replicas only reads, as a write's other copies may already be on the key's new owner.
     */
    @Override
    public boolean rerouteUnsent(Operation<?> operation) {
        if (pool.isRetired()) {
            return (settings.replicas() == 0 || !operation.changesItems()) && cluster.reroute(this, operation);
        }
        return movesUnsent() && failed() && cluster.reroute(this, operation);
    }

    /**
     * Only where failover routes a failed server's keys elsewhere, and never with replicas, where
     * the next server may already hold a copy of the same write.
     */
    private boolean movesUnsent() {
        return settings.failover() && settings.replicas() == 0;
    }

    @Override
    public void answered() {
        if (consecutiveFailures.get() != 0) {
            consecutiveFailures.set(0);
        }
    }

    /** Called by the cluster, under its lock, when this node is marked failed or active. */
    void changeStatus(ServerState.Status status, long nowNanos) {
        state = new ServerState(address, status, Instant.now(), lastError);
        if (status == ServerState.Status.FAILED) {
            failedAtNanos = nowNanos;
        }
        consecutiveFailures.set(0);
        probeDelayNanos = settings.firstProbeDelay().toNanos();
        nextProbeNanos = nowNanos + probeDelayNanos;
    }

    /** Sends a health check if this node is failed and its next check is due. Sweeper thread only. */
    void probeIfDue(long nowNanos) {
        if (!failed() || probing || nowNanos - nextProbeNanos < 0) {
            return;
        }
        probing = true;
        // The health check owns the pace of reconnects while the server is failed.
        pool.resetBackoff();
        SingleOperation<Boolean> check = request("health check", Request.of(Opcode.VERSION));
        check.future().thenCompose(answered -> flushIfDue(nowNanos)).whenComplete((flushed, error) -> {
            if (error == null) {
                cluster.markActive(this, flushed);
            } else {
                lastError = error instanceof Exception e ? e : new IllegalStateException(error);
                probeDelayNanos = Math.min(probeDelayNanos * 2, settings.maxProbeDelay().toNanos());
                nextProbeNanos = System.nanoTime() + probeDelayNanos;
            }
            probing = false;
        });
    }

    /**
     * Flushes the server before it rejoins if it was failed long enough: its data may be older
     * than writes made elsewhere meanwhile. Nothing but health checks reaches it until then.
     */
    private CompletableFuture<Boolean> flushIfDue(long nowNanos) {
        Duration after = settings.failbackFlushAfter();
        if (after == null || nowNanos - failedAtNanos < after.toNanos()) {
            return CompletableFuture.completedFuture(false);
        }
        return request("failback flush", Request.flush(0)).future();
    }

    private SingleOperation<Boolean> request(String name, Request request) {
        SingleOperation<Boolean> operation = new SingleOperation<>(name, null, request, settings.probeTimeout().toNanos(),
                (response, sent) -> {
                    if (!response.ok()) {
                        throw sent.statusError(response);
                    }
                    return true;
                });
        pool.send(operation);
        return operation;
    }

    /** Stops new connections; the pool closes once drained (see {@link #drained}). */
    void retire(long nowNanos) {
        retiredAtNanos = nowNanos;
        pool.retire();
    }

    /**
     * Maintains a retired node's pool and closes it once it is drained: nothing pending after a
     * quiet period (so that a caller that routed by the old list just before the change still gets
     * its operation through), or at the grace deadline whatever is pending.
     *
     * @return {@code true} once the pool is closed
     */
    boolean drained(long nowNanos, long quietNanos, long graceNanos) {
        pool.maintain(nowNanos);
        long retiredFor = nowNanos - retiredAtNanos;
        if (!pool.isClosed() && ((retiredFor >= quietNanos && pool.pending() == 0) || retiredFor > graceNanos)) {
            pool.close();
        }
        return pool.isClosed();
    }

    private void failure(int count, Exception error) {
        lastError = error;
        if (consecutiveFailures.addAndGet(count) >= settings.failureThreshold() && !failed()) {
            cluster.markFailed(this, error);
        }
    }

    @Override
    public String toString() {
        return address + " (" + state.status() + ", " + consecutiveFailures.get() + " consecutive failures, next check in "
                + TimeUnit.NANOSECONDS.toMillis(Math.max(0, nextProbeNanos - System.nanoTime())) + " ms)";
    }
}
