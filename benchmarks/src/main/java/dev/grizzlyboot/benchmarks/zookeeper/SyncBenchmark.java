package dev.grizzlyboot.benchmarks.zookeeper;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.ToLongFunction;

import dev.grizzlyboot.memcached.zookeeper.SyncState;
import dev.grizzlyboot.testsupport.CountingZooKeeperServer;
import dev.grizzlyboot.testsupport.CountingZooKeeperServer.Counts;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedServers;

/**
 * ZooKeeper work of coordinated server-list changes as the number of members grows. For each
 * member count N it starts N members in this JVM (each with its own memcached client and its own
 * ZooKeeper session) against an in-process ZooKeeper that counts requests and watch notifications
 * itself, then proposes a few changes and prints, per change: requests and watch events (in total,
 * per member, and after T), the switch spread, the decision latency and how long after T every
 * member shows the change as committed. Run with {@code benchmarks/run-zookeeper.sh}.
 */
public final class SyncBenchmark {

    private static final long QUIET_MILLIS = 1_000;

    private SyncBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        SyncOptions options = SyncOptions.parse(args);
        List<ChangeResult> results = new ArrayList<>();
        try (CountingZooKeeperServer zooKeeper = CountingZooKeeperServer.start();
             MemcachedServers memcached = MemcachedServers.start(3,
                     MemcachedOptions.defaults().withMemoryMegabytes(16).withExtraArguments("-c", "8192"))) {
            System.out.printf(Locale.ROOT, "commit delay %d ms, session timeout %d ms, %d changes per member count, %d cores%n%n",
                    options.commitDelay().toMillis(), options.sessionTimeout().toMillis(), options.changes(),
                    Runtime.getRuntime().availableProcessors());
            System.out.println("| members | join: requests per member | requests per change | per member | of which after T "
                    + "| watch events per change | switch spread (max) | decision after proposal | committed everywhere after T |");
            System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            for (int members : options.members()) {
                results.addAll(runCluster(zooKeeper, memcached.addresses(), members, options));
            }
        }
        if (options.csv() != null) {
            writeCsv(Path.of(options.csv()), results);
        }
    }

    private static List<ChangeResult> runCluster(CountingZooKeeperServer zooKeeper, List<String> servers, int n,
            SyncOptions options) throws Exception {
        String cluster = "bench-" + n;
        List<String> small = servers.subList(0, 2);
        Counts beforeJoin = settled(zooKeeper);
        List<SyncMember> members = startAll(zooKeeper.connectString(), cluster, n, small, options);
        List<ChangeResult> results = new ArrayList<>();
        try {
            awaitOrFail(() -> members.stream().allMatch(member -> member.state().phase() == SyncState.Phase.IN_SYNC),
                    options.sessionTimeout().toMillis() * 2, "members joined");
            Counts join = settled(zooKeeper).minus(beforeJoin);
            for (int change = 1; change <= options.changes(); change++) {
                List<String> next = change % 2 == 1 ? servers : small;
                results.add(change(zooKeeper, members, members.get(change % n), next, options, change));
            }
            System.out.printf(Locale.ROOT, "| %d | %.1f | %,.0f | %.1f | %,.0f | %,.0f | %d ms | %d ms | %d ms |%n", n,
                    join.requests() / (double) n,
                    mean(results, r -> r.counts().requests()),
                    mean(results, r -> r.counts().requests()) / n,
                    mean(results, ChangeResult::requestsAfterT),
                    mean(results, r -> r.counts().watchEvents()),
                    results.stream().mapToLong(ChangeResult::spreadMillis).max().orElse(0),
                    results.stream().mapToLong(ChangeResult::decisionMillis).max().orElse(0),
                    results.stream().mapToLong(ChangeResult::committedAfterTMillis).max().orElse(0));
            System.err.printf(Locale.ROOT, "N=%d join %s; last change %s; sessions closed during changes: %d%n", n,
                    join.requestsByOperation(), results.get(results.size() - 1).counts().requestsByOperation(),
                    results.stream().mapToLong(ChangeResult::sessionsClosed).sum());
            return results;
        } finally {
            closeAll(members);
        }
    }

    private static ChangeResult change(CountingZooKeeperServer zooKeeper, List<SyncMember> members, SyncMember proposer,
            List<String> servers, SyncOptions options, int change) {
        Counts before = settled(zooKeeper);
        long proposedAt = System.currentTimeMillis();
        long version = proposer.proposeServers(servers);
        long deadline = proposedAt + options.commitDelay().toMillis() + options.sessionTimeout().toMillis() + 60_000;
        long commitAt = 0;
        Counts atT = null;
        while (!members.stream().allMatch(member -> member.switchTo(version) != null)) {
            SyncState proposerState = proposer.state();
            if (commitAt == 0 && proposerState.proposedVersion() == version && proposerState.commitAtMillis() > proposedAt) {
                commitAt = proposerState.commitAtMillis();
            }
            if (atT == null && commitAt != 0 && System.currentTimeMillis() >= commitAt) {
                atT = zooKeeper.counts();
            }
            failPast(deadline, "every member switched to version " + version + ": "
                    + members.stream().filter(member -> member.switchTo(version) == null).count() + " did not");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        long t = members.get(0).switchTo(version).commitAtMillis();
        if (atT == null) {
            atT = zooKeeper.counts();
        }
        awaitOrFail(() -> members.stream().allMatch(member -> member.state().committedVersion() == version),
                deadline - System.currentTimeMillis(), "every member sees version " + version + " committed");
        long committedEverywhere = System.currentTimeMillis();
        Counts after = settled(zooKeeper);
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (SyncMember member : members) {
            long applied = member.switchTo(version).appliedAtMillis();
            first = Math.min(first, applied);
            last = Math.max(last, applied);
        }
        return new ChangeResult(members.size(), change, after.minus(before), after.minus(atT).requests(), last - first,
                last - t, t - options.commitDelay().toMillis() - proposedAt, committedEverywhere - t);
    }

    private static List<SyncMember> startAll(String connectString, String cluster, int n, List<String> servers,
            SyncOptions options) throws Exception {
        ExecutorService starters = Executors.newFixedThreadPool(options.startThreads());
        try {
            List<Future<SyncMember>> started = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String id = "m" + i;
                started.add(starters.submit(() -> new SyncMember(connectString, cluster, id, servers, options)));
            }
            List<SyncMember> members = new ArrayList<>();
            for (Future<SyncMember> member : started) {
                members.add(member.get());
            }
            return members;
        } finally {
            starters.shutdown();
        }
    }

    private static void closeAll(List<SyncMember> members) throws InterruptedException {
        ExecutorService closers = Executors.newFixedThreadPool(8);
        members.forEach(member -> closers.execute(member::close));
        closers.shutdown();
        closers.awaitTermination(2, TimeUnit.MINUTES);
    }

    /** The counters once they have not moved for {@link #QUIET_MILLIS}: the work of the last step is done. */
    private static Counts settled(CountingZooKeeperServer zooKeeper) {
        Counts last = zooKeeper.counts();
        long quietSince = System.currentTimeMillis();
        long deadline = quietSince + 120_000;
        while (System.currentTimeMillis() - quietSince < QUIET_MILLIS) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            Counts now = zooKeeper.counts();
            if (!now.equals(last)) {
                last = now;
                quietSince = System.currentTimeMillis();
            }
            failPast(deadline, "ZooKeeper traffic settles");
        }
        return last;
    }

    private static void awaitOrFail(BooleanSupplier condition, long timeoutMillis, String what) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!condition.getAsBoolean()) {
            failPast(deadline, what);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    private static void failPast(long deadline, String what) {
        if (System.currentTimeMillis() > deadline) {
            throw new IllegalStateException("timed out waiting until " + what);
        }
    }

    private static double mean(List<ChangeResult> results, ToLongFunction<ChangeResult> value) {
        return results.stream().mapToLong(value).average().orElse(0);
    }

    private static void writeCsv(Path file, List<ChangeResult> results) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file))) {
            out.println("members,change,requests,requests_after_t,watch_events,spread_ms,late_ms,decision_ms,"
                    + "committed_after_t_ms,sessions_closed");
            for (ChangeResult r : results) {
                out.printf(Locale.ROOT, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d%n", r.members(), r.change(), r.counts().requests(),
                        r.requestsAfterT(), r.counts().watchEvents(), r.spreadMillis(), r.lateMillis(), r.decisionMillis(),
                        r.committedAfterTMillis(), r.sessionsClosed());
            }
        }
    }

    /**
     * One change, measured.
     *
     * @param counts               requests and watch events from the proposal until ZooKeeper went quiet
     * @param requestsAfterT       of those requests, the ones after T
     * @param spreadMillis         last member's switch minus the first's
     * @param lateMillis           last member's switch minus T
     * @param decisionMillis       from the proposal to the commit decision
     * @param committedAfterTMillis from T until every member showed the change as committed
     */
    record ChangeResult(int members, int change, Counts counts, long requestsAfterT, long spreadMillis, long lateMillis,
                        long decisionMillis, long committedAfterTMillis) {

        /** Sessions that ended during the change: an expired member shows here, as the server closes its session. */
        long sessionsClosed() {
            return counts.requestsByOperation().getOrDefault("closeSession", 0L);
        }
    }
}
