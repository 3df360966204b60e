package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import dev.grizzlyboot.memcached.MemcachedClientBuilder;
import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.zookeeper.SyncState.Phase;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The barrier at scale: {@value #MEMBERS} members in this JVM, each with its own memcached client
 * and its own ZooKeeper session, against one real ZooKeeper and real memcached processes. Every
 * change is checked on every live member: a switch to the committed list at the decision's T,
 * never before it and no later than the tests' tolerance plus this JVM's measured stalls
 * ({@link TestMember#switchTolerance}); only ever forward and to committed versions; the same
 * ring as every other member. ZooKeeper must then hold the commit, exactly the live members and
 * no older barrier. The changes: a sequence (add a server, remove one, replace one, back to an
 * earlier list), each raced by several proposers; a change that misses its deadline, aborted on
 * every member, then the next; a tenth of the members killed at once in the middle of a barrier
 * (half stopped, some of those leaving their acknowledgement behind, half with their sessions
 * closed under them) while other sessions expire and new members join, then the next change; and
 * a change in progress when ZooKeeper restarts.
 *
 * <p>One cluster serves the whole class (joining the members costs seconds); each test starts
 * from whatever list the live members agree on. Each member's footprint is the smallest the
 * client allows: one I/O thread and no idle memcached connection (one is opened on first use), so
 * seven threads per member (I/O, sweeper, ZooKeeper's two, Curator's connection state, the sync's
 * worker and timer). What is drawn (racers, victims, lists) comes from a fixed seed.
 *
 * <p>Why {@value #MEMBERS} and not more, on the two-core CI machine: at T every member's timer
 * wakes at once and the decider's commit record wakes every member's worker, all in this one JVM,
 * while the JIT compiles what just got hot. That queueing is not a stall of the JVM (the stall
 * meter still gets the CPU), so the stall allowance does not cover it: with 125 members one run in
 * about ten had switches 125 to 154 ms after T with no stall measured (the tolerance is 100 ms),
 * with 150 101 and 107 ms, with 200 up to 200 ms; and 200 members took 26 to 30 s here against a
 * budget of 25 s. Since the switch installs the ring built at prepare instead of rebuilding it at
 * T, 200 members switched at most 68 ms after T in two runs, but still took 25 s.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HundredsOfMembersTest {

    private static final Logger log = LoggerFactory.getLogger(HundredsOfMembersTest.class);

    private static final int MEMBERS = 100;
    private static final long SEED = 20_240_601L;
    private static final String CLUSTER = "hundreds";
    private static final String CLUSTER_PATH = "/grizzly-memcached/" + CLUSTER;
    /** Proposers racing for each version of the sequence. */
    private static final int RACERS = 6;
    /** One member in five has a ZooKeeper session of the test's, which the test can close or expire. */
    private static final int OWN_SESSION_EVERY = 5;
    /**
     * A tenth of the members, rounded up: half of them stopped (some of those leave the cluster but
     * keep their session, as an application that closes the sync but not its Curator client), half
     * with their sessions closed under them.
     */
    private static final int KILLED = (MEMBERS + 9) / 10;
    private static final int STOPPED = KILLED / 2;
    private static final int LEFT_KEEPING_SESSION = STOPPED / 2;
    private static final int SESSION_CLOSED = KILLED - STOPPED;
    private static final int EXPIRED = 5;
    private static final int JOINING = 5;
    /** How long the proposals of the abort test give the members to acknowledge. */
    private static final Duration ABORT_DEADLINE = Duration.ofSeconds(1);
    private static final int KEYS = 32;
    private static final int CACHE_SAMPLES = 20;

    @RegisterExtension
    static ZooKeeperExtension zooKeeper = ZooKeeperExtension.withoutConnectionLimit();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(5);

    @RegisterExtension
    static ZnodeInspector znodes = new ZnodeInspector(zooKeeper);

    /** One member: its id, the member, and the ZooKeeper session the test owns for it (or null). */
    private record Member(String id, TestMember node, CuratorFramework session) {

        SyncState state() {
            return node.state();
        }

        void close() {
            node.close();
            if (session != null) {
                session.close();
            }
        }
    }

    private static final Random random = new Random(SEED);
    private static final ExecutorService threads = Executors.newCachedThreadPool();
    private static final List<String> keys = new ArrayList<>();
    /** The members that are alive (the tests move killed ones out, joiners in). */
    private static final List<Member> live = new ArrayList<>();
    /** Killed members whose sync still runs, without a session: closed after the class. */
    private static final List<Member> killed = new ArrayList<>();
    /** Sessions of members that left the cluster but kept them: closed after the class. */
    private static final List<CuratorFramework> sessionsKept = new ArrayList<>();
    /** Every version that was committed. */
    private static final Set<Long> committed = new HashSet<>();
    private static int joined;

    @BeforeAll
    static void startMembers() throws Exception {
        for (int i = 0; i < KEYS; i++) {
            keys.add("hundreds-" + i);
        }
        List<String> first = memcached.addresses().subList(0, 2);
        long start = System.currentTimeMillis();
        // A fresh JVM resolves the classes of a switch on its first one; a hundred members doing that
        // in the same millisecond queue on the class loader's locks (0.16 s each on average, measured
        // at 200), which no fleet (one member per process) does. A cluster of one switches first.
        try (TestMember scout = TestMember.join("scout", "scout", first, builder -> builder
                .connectString(zooKeeper.connectString()).commitDelay(Duration.ZERO))) {
            scout.sync.proposeServers(memcached.addresses(), 1);
            scout.awaitSwitch(2);
        }
        List<Callable<Member>> joins = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            String id = String.format("m%03d", i);
            boolean ownSession = i % OWN_SESSION_EVERY == 1;
            joins.add(() -> join(id, first, ownSession));
        }
        live.addAll(all(joins, 8));
        joined = MEMBERS;
        awaitAgreement();
        log.info("{} members joined in {} ms ({} threads in this JVM)", MEMBERS, System.currentTimeMillis() - start,
                Thread.activeCount());
    }

    @AfterAll
    static void stopMembers() throws Exception {
        long start = System.currentTimeMillis();
        List<Member> all = new ArrayList<>(live);
        all.addAll(killed);
        try {
            all(all.stream().<Callable<Void>>map(member -> () -> {
                member.close();
                return null;
            }).toList(), 32);
        } finally {
            sessionsKept.forEach(CuratorFramework::close);
            sessionsKept.clear();
            live.clear();
            killed.clear();
            threads.shutdownNow();
            log.info("members closed in {} ms", System.currentTimeMillis() - start);
        }
    }

    @Test
    @Order(1)
    void racedChangesAddRemoveReplaceAndRevertEachCommitOneWinnerOnEveryMemberAtT() throws Exception {
        List<List<String>> history = new ArrayList<>(List.of(awaitAgreement().servers()));
        long last = 0;
        for (String step : List.of("add", "remove", "replace", "revert")) {
            // Proposed as soon as the last change is recorded, while members may still be catching up.
            ServerList before = ServerList.decode(CLUSTER_PATH + "/committed",
                    znodes.data(CLUSTER_PATH + "/committed").getBytes(StandardCharsets.UTF_8));
            long proposedAt = System.currentTimeMillis();
            Race race = race(pick(live, RACERS), candidates(step, before.servers(), history), before.version());
            log.info("{}: {} won version {} with {}", step, race.winner().id(), race.version(), race.servers());
            assertSwitchedEverywhere(race.version(), race.servers(), proposedAt, true);
            race.assertOthersLost();
            assertRecorded(race.version(), race.servers());
            history.add(race.servers());
            last = race.version();
        }
        assertThat(awaitAgreement().version()).isEqualTo(last);
        assertSharedCacheWorks();
    }

    @Test
    @Order(2)
    void aChangeNotAcknowledgedByItsDeadlineIsAbortedOnEveryMemberAndTheNextCommits() throws Exception {
        Agreement before = awaitAgreement();
        List<String> next = candidates("add", before.servers(), List.of()).get(0);
        // Its proposals give the members one second to acknowledge (a session of the test's allows that).
        Member impatient = join("impatient", before.servers(), true, builder -> builder.prepareTimeout(ABORT_DEADLINE));
        live.add(impatient);
        long version;
        try (CuratorFramework stuck = TestMember.stuck(zooKeeper.connectString(), CLUSTER)) {
            version = impatient.node().sync.proposeServers(next, before.version());
            String path = CLUSTER_PATH + "/barriers/" + version + "/decision";
            awaiting().alias("every member shows version " + version + " aborted")
                    .failFast("committed without the stuck member's acknowledgement",
                            () -> String.valueOf(znodes.data(path)).contains("outcome=commit"))
                    .until(() -> live.stream().allMatch(member -> member.state().proposedVersion() == version
                            && member.state().phase() == Phase.ABORTED));
            assertThat(znodes.data(path)).contains("outcome=abort").contains("[stuck]");
            ServerList proposal = ServerList.decode(CLUSTER_PATH + "/servers",
                    znodes.data(CLUSTER_PATH + "/servers").getBytes(StandardCharsets.UTF_8));
            assertThat(stat(path).getCtime()).as("aborted at its deadline, not before")
                    .isGreaterThanOrEqualTo(proposal.prepareByMillis());
        } finally {
            live.remove(impatient);
            impatient.close();
        }
        List<String> wrong = new ArrayList<>();
        for (Member member : live) {
            SyncState state = member.state();
            if (state.version() != before.version() || member.node().switchTo(version) != null
                    || !member.node().client.servers().toString().equals(before.servers().toString())) {
                wrong.add(member.id() + " at version " + state.version() + " with " + member.node().client.servers());
            }
        }
        assertThat(wrong).as("members after version %d was aborted", version).isEmpty();
        log.info("version {}: aborted on all {} members", version, live.size());

        // The next change, based on the same committed version, commits; the aborted barrier goes with the clean-up.
        assertThat(commitEverywhere(next, before.version())).isEqualTo(version + 1);
    }

    @Test
    @Order(3)
    void aTenthKilledMidBarrierWhileSessionsExpireAndMembersJoinAllAgreeAndTheNextChangeCommits() throws Exception {
        Agreement before = awaitAgreement();
        List<String> next = candidates("replace", before.servers(), List.of()).get(0);
        List<Member> ownSessions = pick(live.stream().filter(member -> member.session() != null).toList(),
                SESSION_CLOSED + EXPIRED + LEFT_KEEPING_SESSION);
        List<Member> sessionClosed = ownSessions.subList(0, SESSION_CLOSED);
        List<Member> expiring = ownSessions.subList(SESSION_CLOSED, SESSION_CLOSED + EXPIRED);
        List<Member> leftKeepingSession = ownSessions.subList(SESSION_CLOSED + EXPIRED, ownSessions.size());
        List<Member> picked = pick(live.stream().filter(member -> member.session() == null).toList(),
                STOPPED - LEFT_KEEPING_SESSION + 1);
        Member proposer = picked.get(0);
        List<Member> stopped = new ArrayList<>(picked.subList(1, picked.size()));
        stopped.addAll(leftKeepingSession);
        assertThat(stopped.size() + sessionClosed.size()).as("killed").isGreaterThanOrEqualTo(live.size() / 10);

        Map<Member, Long> oldSessions = new HashMap<>();
        for (Member member : expiring) {
            oldSessions.put(member, stat(CLUSTER_PATH + "/members/" + member.id()).getEphemeralOwner());
        }
        long version;
        List<Member> joiners;
        long releasedAt;
        try (CuratorFramework stuck = TestMember.stuck(zooKeeper.connectString(), CLUSTER)) {
            // The stuck member never acknowledges: the barrier stays open while the test breaks things.
            version = proposer.node().sync.proposeServers(next, before.version());
            List<Callable<Member>> burst = new ArrayList<>();
            for (Member member : expiring) {
                burst.add(() -> {
                    TestMember.expireSession(member.session(), zooKeeper.connectString());
                    return null;
                });
            }
            String acks = CLUSTER_PATH + "/barriers/" + version + "/acks";
            String decision = CLUSTER_PATH + "/barriers/" + version + "/decision";
            for (Member member : stopped) {
                burst.add(() -> {
                    if (leftKeepingSession.contains(member)) {
                        // It leaves once it has acknowledged, and its acknowledgement stays with its
                        // session: an acknowledgement that no longer counts.
                        undecided(decision).until(() -> stat(acks + "/" + member.id()) != null);
                        member.node().close();
                    } else {
                        member.close();
                    }
                    return null;
                });
            }
            for (Member member : sessionClosed) {
                // Its sync goes on running without a session, as a member cut off for good would.
                burst.add(() -> {
                    member.session().close();
                    return null;
                });
            }
            for (int i = 0; i < JOINING; i++) {
                String id = "joiner-" + joined++;
                // A joiner starts from a list of its own: it adopts the committed one, then prepares the proposal.
                List<String> own = memcached.addresses().subList(4, 5);
                burst.add(() -> join(id, own, false));
            }
            long burstAt = System.currentTimeMillis();
            joiners = all(burst, burst.size()).stream().filter(member -> member != null).toList();
            live.removeAll(stopped);
            live.removeAll(sessionClosed);
            killed.addAll(sessionClosed);
            leftKeepingSession.forEach(member -> sessionsKept.add(member.session()));
            live.addAll(joiners);

            // Every live member acknowledged, the expired ones again under their new sessions.
            undecided(decision).until(() -> znodes.children(acks).containsAll(memberIds(live))
                    && expiring.stream().allMatch(member -> reacknowledged(member, version, oldSessions.get(member))));
            log.info("version {}: while {} members acknowledged, {} were stopped ({} of them keeping their "
                    + "sessions), {} lost their sessions for good, {} had theirs expired and {} joined; all live ones "
                    + "acknowledged {} ms later", version, live.size(), stopped.size(), leftKeepingSession.size(),
                    sessionClosed.size(), expiring.size(), joiners.size(), System.currentTimeMillis() - burstAt);
            assertThat(znodes.children(acks)).as("acknowledgements left behind")
                    .containsAll(memberIds(leftKeepingSession));
            assertThat(znodes.children(CLUSTER_PATH + "/members")).as("registered")
                    .doesNotContainAnyElementsOf(memberIds(stopped))
                    .doesNotContainAnyElementsOf(memberIds(sessionClosed))
                    .contains("stuck");
            assertThat(joiners).allSatisfy(member -> assertThat(member.node().switchTo(before.version()))
                    .as("%s adopted the committed list", member.id()).isNotNull());
            assertThat(stat(decision)).as("no decision while the stuck member has not acknowledged").isNull();
            assertThat(live).allSatisfy(member -> assertThat(member.state().version()).isEqualTo(before.version()));
            releasedAt = System.currentTimeMillis();
        }
        long decidedAt = assertSwitchedEverywhere(version, next, releasedAt, true);
        log.info("version {} decided {} ms after the stuck member left", version, decidedAt - releasedAt);
        assertRecorded(version, next);
        assertThat(killed).allSatisfy(member -> assertThat(member.state().version()).as("killed %s", member.id())
                .isEqualTo(before.version()));

        List<String> after = candidates("add", next, List.of()).get(0);
        commitEverywhere(after, version);
    }

    @Test
    @Order(4)
    void aChangeInProgressWhenZooKeeperRestartsReachesEveryMember() throws Exception {
        Agreement before = awaitAgreement();
        List<String> next = candidates("remove", before.servers(), List.of()).get(0);
        long proposedAt = System.currentTimeMillis();
        long version = pick(live, 1).get(0).node().sync.proposeServers(next, before.version());
        // About half the members have acknowledged when ZooKeeper goes (one's reply may be lost).
        awaiting().pollInterval(Duration.ofMillis(2))
                .until(() -> live.stream().filter(member -> acknowledged(member, version)).count() >= live.size() / 2);
        long stoppedAt = System.currentTimeMillis();
        zooKeeper.stop();
        long acknowledged = live.stream().filter(member -> acknowledged(member, version)).count();
        awaiting().until(() -> live.stream().noneMatch(member -> member.state().connected()));
        zooKeeper.restart();
        log.info("ZooKeeper stopped {} ms after version {} was proposed, {} of {} members had acknowledged; restarted "
                + "{} ms later", stoppedAt - proposedAt, version, acknowledged, live.size(),
                System.currentTimeMillis() - stoppedAt);
        // A member that hears the decision only on reconnecting switches late by design (docs/zookeeper.md,
        // "Known limits"), so agreement and "never before T" are held here, not the lateness.
        assertSwitchedEverywhere(version, next, proposedAt, false);
        assertRecorded(version, next);
        assertThat(awaitAgreement().version()).isEqualTo(version);
    }

    // ---- checks -----------------------------------------------------------------------------------

    /** Awaitility with the tests' deadline, checking at once and then every 20 ms. */
    private static ConditionFactory awaiting() {
        return await().atMost(TestMember.AWAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20));
    }

    /** {@link #awaiting()}, failing at once if the barrier is decided while the stuck member holds it. */
    private static ConditionFactory undecided(String decision) {
        return awaiting().failFast("decided while the stuck member has not acknowledged", () -> stat(decision) != null);
    }

    /** What every live member agrees on: version (committed and in use) and list. */
    private record Agreement(long version, List<String> servers) {
    }

    /**
     * Waits until every live member is registered and in step on one committed version and list,
     * and returns them.
     */
    private static Agreement awaitAgreement() {
        awaiting().alias("every live member registered and in step").until(() -> {
            Set<String> views = new HashSet<>();
            for (Member member : live) {
                SyncState state = member.state();
                if (state.phase() != Phase.IN_SYNC || state.version() != state.committedVersion()) {
                    return false;
                }
                views.add(state.version() + " " + state.servers());
            }
            return views.size() == 1
                    && new TreeSet<>(znodes.children(CLUSTER_PATH + "/members")).equals(memberIds(live));
        });
        SyncState state = live.get(0).state();
        committed.add(state.version());
        return new Agreement(state.version(), state.servers());
    }

    /**
     * Every live member switched to {@code version} and {@code servers} at the decision's T, never
     * before it, and (if {@code onTime}) no later than the tolerance plus this JVM's stalls; only
     * ever forward and to committed versions; and routes every key as all the others do. Returns
     * when the decision was made (T minus the commit delay, by the decider's clock), which must
     * not be before {@code notDecidedBefore}.
     */
    private static long assertSwitchedEverywhere(long version, List<String> servers, long notDecidedBefore,
            boolean onTime) throws Exception {
        awaiting().alias("every member switched to version " + version)
                .until(() -> live.stream().allMatch(member -> member.node().switchTo(version) != null));
        committed.add(version);
        String decisionPath = CLUSTER_PATH + "/barriers/" + version + "/decision";
        Decision decision = Decision.decode(decisionPath, znodes.data(decisionPath).getBytes(StandardCharsets.UTF_8));
        assertThat(decision.commit()).as("version %d committed", version).isTrue();
        long commitAt = decision.commitAtMillis();
        long decidedAt = commitAt - TestMember.COMMIT_DELAY.toMillis();
        assertThat(decidedAt).as("version %d decided after %d", version, notDecidedBefore)
                .isGreaterThanOrEqualTo(notDecidedBefore);
        // The record carries T: a member that never heard the decision (it was cut off) adopts the
        // recorded commit and must still report the T every other member switched at.
        awaiting().until(() -> znodes.data(CLUSTER_PATH + "/committed"),
                data -> data.contains("version=" + version + "\n"));
        assertThat(znodes.data(CLUSTER_PATH + "/committed")).contains("commit-at=" + commitAt + "\n");

        // Collected, not asserted one by one: the whole picture on failure, and cheap for hundreds of members.
        List<String> wrong = new ArrayList<>();
        int late = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        List<ServerAddress> owners = owners(live.get(0));
        for (Member member : live) {
            SyncState switched = member.node().switchTo(version);
            long offset = switched.appliedAtMillis() - commitAt;
            first = Math.min(first, offset);
            last = Math.max(last, offset);
            String uses = member.node().client.servers().toString();
            if (!switched.servers().equals(servers) || !uses.equals(servers.toString())) {
                wrong.add(member.id() + " switched to " + switched.servers() + ", uses " + uses);
            }
            if (switched.commitAtMillis() != commitAt) {
                wrong.add(member.id() + " reports T " + switched.commitAtMillis() + ", not " + commitAt);
            }
            if (offset < 0) {
                wrong.add(member.id() + " switched " + -offset + " ms before T");
            }
            if (offset > TestMember.switchTolerance(commitAt, switched.appliedAtMillis())) {
                late++;
                if (onTime) {
                    wrong.add(member.id() + " switched " + offset + " ms after T, more than the tolerance of "
                            + TestMember.switchTolerance(commitAt, switched.appliedAtMillis()) + " ms");
                }
            }
            List<Long> versions = member.node().switches.stream().map(SyncState::version).toList();
            if (!versions.equals(versions.stream().sorted().distinct().toList()) || !committed.containsAll(versions)) {
                wrong.add(member.id() + " switched to versions " + versions + " (committed: " + committed + ")");
            }
            if (!owners(member).equals(owners)) {
                wrong.add(member.id() + " routes keys elsewhere than " + live.get(0).id());
            }
        }
        assertThat(wrong).as("members switching to version %d at T %d", version, commitAt).isEmpty();
        log.info("version {}: {} members switched {}..{} ms after T (tolerance at the last: {} ms), {} of them "
                + "late (they heard of the commit only on reconnecting); decided {} ms after the proposal or release",
                version, live.size(), first, last, TestMember.switchTolerance(commitAt, commitAt + last), late,
                decidedAt - notDecidedBefore);
        return decidedAt;
    }

    /** Which server {@code member} routes each of the keys to. */
    private static List<ServerAddress> owners(Member member) {
        return keys.stream().map(member.node().client::ownerOf).toList();
    }

    /**
     * A live member proposes {@code servers} on {@code basedOn}; every live member switches to it at
     * T, ZooKeeper records it and the members agree on it. Returns the new version.
     */
    private static long commitEverywhere(List<String> servers, long basedOn) throws Exception {
        long proposedAt = System.currentTimeMillis();
        long version = pick(live, 1).get(0).node().sync.proposeServers(servers, basedOn);
        assertSwitchedEverywhere(version, servers, proposedAt, true);
        assertRecorded(version, servers);
        assertThat(awaitAgreement().version()).isEqualTo(version);
        return version;
    }

    /** ZooKeeper holds {@code version} as committed, exactly the live members, and no older barrier. */
    private static void assertRecorded(long version, List<String> servers) throws Exception {
        awaiting().until(() -> znodes.data(CLUSTER_PATH + "/committed"),
                data -> data.contains("version=" + version + "\n"));
        assertThat(znodes.data(CLUSTER_PATH + "/committed")).contains("servers=" + String.join(",", servers) + "\n");
        awaiting().until(() -> new TreeSet<>(znodes.children(CLUSTER_PATH + "/members")),
                memberIds(live)::equals);
        awaiting().until(() -> znodes.children(CLUSTER_PATH + "/barriers"),
                barriers -> barriers.equals(List.of(Long.toString(version))));
    }

    /** A sample of live members each stores a key, and another member reads it from the same server. */
    private static void assertSharedCacheWorks() {
        List<Member> writers = pick(live, CACHE_SAMPLES);
        List<Member> readers = pick(live, CACHE_SAMPLES);
        for (int i = 0; i < writers.size(); i++) {
            Member writer = writers.get(i);
            Member reader = readers.get(i);
            writer.node().client.blocking().set("written-by-" + writer.id(), writer.id(), Duration.ofMinutes(1));
            assertThat(reader.node().client.blocking().get("written-by-" + writer.id())).as("%s reads what %s wrote",
                    reader.id(), writer.id()).isEqualTo(writer.id());
        }
    }

    private static boolean reacknowledged(Member member, long version, long oldSession) {
        Stat node = stat(CLUSTER_PATH + "/members/" + member.id());
        Stat ack = stat(CLUSTER_PATH + "/barriers/" + version + "/acks/" + member.id());
        return node != null && ack != null && node.getEphemeralOwner() != oldSession
                && ack.getEphemeralOwner() == node.getEphemeralOwner();
    }

    /** Whether {@code member} has acknowledged {@code version} (or gone further with it). */
    private static boolean acknowledged(Member member, long version) {
        SyncState state = member.state();
        return state.proposedVersion() == version && (state.phase() == Phase.PREPARED
                || state.phase() == Phase.COMMIT_SCHEDULED) || state.version() >= version;
    }

    // ---- the race -----------------------------------------------------------------------------------

    /** The first proposal of a race that won; the others are checked by {@link #assertOthersLost}. */
    private record Race(Member winner, long version, List<String> servers, long expected,
            Map<Future<Long>, Member> proposals) {

        /** Every other racer got a conflict naming the version they all expected. */
        void assertOthersLost() throws Exception {
            for (Map.Entry<Future<Long>, Member> proposal : proposals.entrySet()) {
                if (proposal.getValue() == winner) {
                    continue;
                }
                try {
                    long won = proposal.getKey().get(10, TimeUnit.SECONDS);
                    fail("%s also won, version %d", proposal.getValue().id(), won);
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).as("%s lost", proposal.getValue().id())
                            .isInstanceOf(ServerListConflictException.class);
                    assertThat(((ServerListConflictException) e.getCause()).expectedVersion()).isEqualTo(expected);
                }
            }
        }
    }

    /**
     * Racer i proposes candidate i (cycling), all released at once against {@code expected}.
     * Returns as soon as one wins, with the next version and its list in ZooKeeper.
     */
    private static Race race(List<Member> racers, List<List<String>> candidates, long expected) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        CompletionService<Long> done = new ExecutorCompletionService<>(threads);
        Map<Future<Long>, Member> proposals = new HashMap<>();
        Map<Future<Long>, List<String>> lists = new HashMap<>();
        for (int i = 0; i < racers.size(); i++) {
            Member racer = racers.get(i);
            List<String> list = candidates.get(i % candidates.size());
            Future<Long> proposal = done.submit(() -> {
                go.await();
                return racer.node().sync.proposeServers(list, expected);
            });
            proposals.put(proposal, racer);
            lists.put(proposal, list);
        }
        go.countDown();
        for (int i = 0; i < racers.size(); i++) {
            Future<Long> proposal = done.poll(10, TimeUnit.SECONDS);
            assertThat(proposal).as("a proposal answered").isNotNull();
            long version;
            try {
                version = proposal.get();
            } catch (ExecutionException e) {
                continue;
            }
            assertThat(version).isEqualTo(expected + 1);
            List<String> servers = lists.get(proposal);
            assertThat(znodes.data(CLUSTER_PATH + "/servers")).contains("version=" + version + "\n")
                    .contains("servers=" + String.join(",", servers) + "\n");
            return new Race(proposals.get(proposal), version, servers, expected, proposals);
        }
        return fail("no racer won version %d", expected + 1);
    }

    /**
     * Distinct lists of one kind of change from {@code current}, in drawn order: {@code add} one of
     * the servers not in it (at any position), {@code remove} one, {@code replace} one by a server
     * not in it, or {@code revert} to a list of {@code history} other than the current one.
     */
    private static List<List<String>> candidates(String kind, List<String> current, List<List<String>> history) {
        List<String> spare = memcached.addresses().stream().filter(server -> !current.contains(server)).toList();
        Set<List<String>> lists = new LinkedHashSet<>();
        switch (kind) {
            case "add" -> {
                for (String server : spare) {
                    for (int at = 0; at <= current.size(); at++) {
                        List<String> list = new ArrayList<>(current);
                        list.add(at, server);
                        lists.add(list);
                    }
                }
            }
            case "remove" -> {
                for (int at = 0; at < current.size(); at++) {
                    List<String> list = new ArrayList<>(current);
                    list.remove(at);
                    lists.add(list);
                }
            }
            case "replace" -> {
                for (String server : spare) {
                    for (int at = 0; at < current.size(); at++) {
                        List<String> list = new ArrayList<>(current);
                        list.set(at, server);
                        lists.add(list);
                    }
                }
            }
            case "revert" -> history.stream().filter(list -> !list.equals(current)).forEach(lists::add);
            default -> throw new IllegalArgumentException(kind);
        }
        List<List<String>> drawn = new ArrayList<>(lists);
        Collections.shuffle(drawn, random);
        assertThat(drawn).as("%s candidates from %s", kind, current).isNotEmpty();
        return drawn;
    }

    // ---- members ------------------------------------------------------------------------------------

    /** Joins a member with the smallest footprint, on a ZooKeeper session of its own or of the test's. */
    private static Member join(String id, List<String> servers, boolean ownSession) {
        return join(id, servers, ownSession, UnaryOperator.identity());
    }

    private static Member join(String id, List<String> servers, boolean ownSession,
            UnaryOperator<ZooKeeperServerListSync.Builder> options) {
        UnaryOperator<MemcachedClientBuilder> small = builder -> builder.ioThreads(1).connectionsPerServer(0, 1);
        CuratorFramework session = ownSession ? TestMember.curator(zooKeeper.connectString()) : null;
        return new Member(id, TestMember.join(CLUSTER, id, servers, small, builder -> options.apply(session != null
                ? builder.curator(session) : builder.connectString(zooKeeper.connectString()))), session);
    }

    private static <T> List<T> pick(List<T> from, int count) {
        List<T> shuffled = new ArrayList<>(from);
        Collections.shuffle(shuffled, random);
        return shuffled.subList(0, Math.min(count, shuffled.size()));
    }

    private static Set<String> memberIds(Collection<Member> members) {
        return members.stream().map(Member::id).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Stat stat(String path) {
        try {
            return znodes.exists(path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs the tasks on {@code parallelism} threads at once and returns their results in order. */
    private static <T> List<T> all(List<Callable<T>> tasks, int parallelism) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(parallelism);
        try {
            List<T> results = new ArrayList<>();
            for (Future<T> future : pool.invokeAll(tasks)) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    fail("a task failed", e.getCause());
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
