package dev.grizzlyboot.memcached.zookeeper;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * One member's ZooKeeper sync meters, tagged {@code cluster}: {@code memcached.zookeeper.switches}
 * (server lists this member switched to), {@code memcached.zookeeper.commit.skew} (how long after the
 * decided commit time T this member switched, by its own clock) and
 * {@code memcached.zookeeper.clock.offset} (ZooKeeper's clock minus this member's, in milliseconds;
 * with the skew, how far apart members really switch). Loaded only when a registry is given, so
 * Micrometer stays optional. Thread-safe.
 */
final class SyncMeters implements Consumer<SyncState> {

    private final MeterRegistry registry;
    private final String cluster;
    private final Counter switches;
    private final Timer commitSkew;
    private Gauge clockOffset;
    /** T of the last commit measured, so an adoption of an older list is not taken for a commit. */
    private long measuredCommitAt;

    private SyncMeters(MeterRegistry registry, String cluster) {
        this.registry = registry;
        this.cluster = cluster;
        this.switches = Counter.builder("memcached.zookeeper.switches").tag("cluster", cluster)
                .description("Server lists this member switched to").register(registry);
        this.commitSkew = Timer.builder("memcached.zookeeper.commit.skew").tag("cluster", cluster)
                .description("How long after the decided commit time this member switched, by its own clock")
                .register(registry);
    }

    /** Meters in {@code registry}, a {@link MeterRegistry} the builder holds as an {@code Object}. */
    static SyncMeters of(Object registry, String cluster) {
        return new SyncMeters((MeterRegistry) registry, cluster);
    }

    /** Publishes the clock offset of the member whose state {@code state} reads. */
    synchronized void watchClockOffset(Supplier<SyncState> state) {
        clockOffset = Gauge.builder("memcached.zookeeper.clock.offset", state, current -> current.get().clockOffsetMillis())
                .tag("cluster", cluster).baseUnit("milliseconds").strongReference(true)
                .description("ZooKeeper's clock minus this member's clock").register(registry);
    }

    /** Removes this member's meters from the registry (the sync is closed). */
    synchronized void close() {
        registry.remove(switches);
        registry.remove(commitSkew);
        if (clockOffset != null) {
            registry.remove(clockOffset);
        }
    }

    /** Counts a switch and, when it was a commit at a new T, how late it came. */
    @Override
    public synchronized void accept(SyncState applied) {
        switches.increment();
        long commitAt = applied.commitAtMillis();
        if (commitAt != 0 && commitAt != measuredCommitAt) {
            measuredCommitAt = commitAt;
            commitSkew.record(Math.max(0, applied.appliedAtMillis() - commitAt), TimeUnit.MILLISECONDS);
        }
    }
}
