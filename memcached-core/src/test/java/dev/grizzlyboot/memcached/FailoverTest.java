package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import dev.grizzlyboot.testsupport.Stalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three real servers under concurrent load; one is killed (SIGKILL) or hung (SIGSTOP). Errors
 * happen only until the client marks it failed, then stop; no call outlives the operation timeout
 * by more than the sweep slack; no thread is stuck. When the server is back, a health check puts
 * it back in the ring and its keys route to it again. Time the test JVM itself was stalled (a
 * loaded machine, see {@link Stalls}) is not held against the client: a timeout that only such a
 * stall explains is not counted as an error, and bounds apply to time the client could run.
 */
class FailoverTest {

    private static final Logger log = LoggerFactory.getLogger(FailoverTest.class);
    private static final Duration TIMEOUT = Duration.ofMillis(250);
    private static final int THREADS = 16;
    private static final Duration MAX_HEALTH_CHECK = Duration.ofMillis(500);
    /** How long to wait for what must happen eventually: generous, as a loaded machine may run this JVM seldom. */
    private static final Duration AWAIT = Duration.ofSeconds(30);
    /** Timeout + sweep tick + scheduling slack on a busy 2-core machine. */
    private static final long CALL_BOUND_MILLIS = TIMEOUT.toMillis() + 500;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @Test
    void killedServerLeavesTheRingThenComesBack() throws Exception {
        long errors = failAndRecover(MemcachedProcess::kill, MemcachedProcess::restart);
        // Only calls written to the dead sockets fail (each thread has one call at a time, on one of
        // at most four connections); calls queued or sent meanwhile wait and go to the next server.
        // Before queued calls were re-routed, this window cost hundreds of errors.
        assertThat(errors).as("errors while the killed server was detected").isLessThanOrEqualTo(THREADS * 4);
    }

    @Test
    void hungServerLeavesTheRingThenComesBack() throws Exception {
        failAndRecover(MemcachedProcess::pause, MemcachedProcess::resume);
    }

    @Test
    void withoutFailoverAFailedServersKeysFailFastAndOtherKeysWork() throws Exception {
        MemcachedProcess victim = memcached.get(1);
        try (MemcachedClient client = client(false)) {
            List<ServerState> failures = new CopyOnWriteArrayList<>();
            client.addServerStateListener(state -> {
                if (state.failed()) {
                    failures.add(state);
                }
            });
            String victimKey = keyOwnedBy(client, victim);
            String otherKey = keyNotOwnedBy(client, victim);
            victim.kill();
            await().atMost(AWAIT).until(() -> {
                client.get(victimKey).handle((value, error) -> null).join();
                return !failures.isEmpty();
            });

            try (Stalls stalls = new Stalls()) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> client.blocking().get(victimKey))
                        .isInstanceOf(ServerUnavailableException.class).hasMessageContaining(victim.address());
                long end = System.nanoTime();
                assertThat(TimeUnit.NANOSECONDS.toMillis(end - start - stalls.stalledNanos(start, end)))
                        .as("fail fast (ms, not counting this JVM's own stalls)").isLessThan(100);
            }
            assertThat(client.serverStates()).filteredOn(ServerState::failed).extracting(ServerState::server)
                    .containsExactly(ServerAddress.parse(victim.address()));
            client.blocking().set(otherKey, "fine", Duration.ZERO);
            assertThat(client.blocking().get(otherKey)).isEqualTo("fine");

            victim.restart();
            await().atMost(AWAIT).until(() -> client.serverStates().stream().noneMatch(ServerState::failed));
            client.blocking().set(victimKey, "back", Duration.ZERO);
            assertThat(client.blocking().get(victimKey)).isEqualTo("back");
            assertThat(victim.textCommand("get " + victimKey)).contains("back");
        }
    }

    @Test
    void bulkCallsSpanningADeadServerReportItsKeysAsErrorsNotTheWholeCall() throws Exception {
        MemcachedProcess victim = memcached.get(2);
        try (MemcachedClient client = client(true)) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                keys.add("bulk-" + i);
            }
            Map<String, String> values = new java.util.LinkedHashMap<>();
            keys.forEach(key -> values.put(key, "v-" + key));
            assertThat(client.blocking().setMulti(values, Duration.ZERO).errors()).isEmpty();
            List<String> victimKeys = keys.stream().filter(key -> owner(client, key).equals(victim.address())).toList();
            assertThat(victimKeys).isNotEmpty().hasSizeLessThan(keys.size());

            victim.kill();
            BulkResult<Object> during = client.blocking().getMulti(keys);
            assertThat(during.size()).isEqualTo(keys.size());
            for (String key : keys) {
                if (victimKeys.contains(key)) {
                    assertThat(during.outcome(key)).as(key).isIn(Outcome.ERROR, Outcome.NOT_FOUND);
                } else {
                    assertThat(during.outcome(key)).as(key).isEqualTo(Outcome.FOUND);
                    assertThat(during.get(key).value()).isEqualTo("v-" + key);
                }
            }

            await().atMost(AWAIT).until(() -> {
                client.getMulti(keys).join();
                return client.serverStates().stream().anyMatch(ServerState::failed);
            });
            // Failed over: the dead server's keys now go to live servers, where they are misses.
            BulkResult<Object> after = client.blocking().getMulti(keys);
            assertThat(after.errors()).isEmpty();
            victimKeys.forEach(key -> assertThat(after.outcome(key)).isEqualTo(Outcome.NOT_FOUND));
        }
    }

    /** @return the errors the load saw before the server was failed over (the detection window) */
    private long failAndRecover(Consumer<MemcachedProcess> fault, Consumer<MemcachedProcess> heal) throws Exception {
        MemcachedProcess victim = memcached.get(0);
        ServerAddress victimAddress = ServerAddress.parse(victim.address());
        try (MemcachedClient client = client(true)) {
            List<ServerState> changes = new CopyOnWriteArrayList<>();
            List<Long> changeTimes = new CopyOnWriteArrayList<>();
            client.addServerStateListener(state -> {
                changes.add(state);
                changeTimes.add(System.nanoTime());
            });
            String victimKey = keyOwnedBy(client, victim);
            Load load = new Load(client.blocking(), THREADS, 30, Duration.ofMinutes(2));
            await().atMost(AWAIT).until(() -> load.successes.get() > 2_000);

            long faultAt = System.nanoTime();
            fault.accept(victim);
            await().atMost(AWAIT).until(() -> !changes.isEmpty());
            assertThat(changes.get(0).server()).isEqualTo(victimAddress);
            assertThat(changes.get(0).status()).isEqualTo(ServerState.Status.FAILED);
            long failedAt = changeTimes.get(0);
            long detectionMillis = TimeUnit.NANOSECONDS.toMillis(failedAt - faultAt);
            assertThat(client.serverFor(victimKey)).as("failed over").isNotEqualTo(victimAddress);

            // After the detection window (plus the operations already in flight to the victim), no more errors.
            long quietFrom = failedAt + TIMEOUT.toNanos() + TimeUnit.MILLISECONDS.toNanos(300);
            await().atMost(AWAIT).until(() -> System.nanoTime() - quietFrom > 0);
            long successesQuiet = load.successes.get();
            await().atMost(AWAIT).until(() -> load.successes.get() > successesQuiet + 3_000);
            long errorsInWindow = load.errorsSince(load.startNanos, TIMEOUT).size();
            assertThat(load.errorsSince(quietFrom, TIMEOUT)).as("errors after the detection window").isEmpty();

            long healAt = System.nanoTime();
            heal.accept(victim);
            await().atMost(AWAIT).until(() -> changes.size() >= 2);
            assertThat(changes.get(1).status()).isEqualTo(ServerState.Status.ACTIVE);
            long recoveredAt = changeTimes.get(1);
            long recoveryMillis = TimeUnit.NANOSECONDS.toMillis(recoveredAt - healAt);
            assertThat(TimeUnit.NANOSECONDS.toMillis(recoveredAt - healAt - load.stalledNanos(healAt, recoveredAt)))
                    .as("back within the health-check interval (ms, not counting the client's own stalls; %d ms with them)", recoveryMillis)
                    .isLessThanOrEqualTo(MAX_HEALTH_CHECK.toMillis() + TIMEOUT.toMillis() + 1_000);
            assertThat(client.serverFor(victimKey)).as("routed back").isEqualTo(victimAddress);
            long setsBefore = Long.parseLong(victim.stats().get("cmd_set"));
            await().atMost(AWAIT).until(() -> Long.parseLong(victim.stats().get("cmd_set")) > setsBefore + 100);
            load.stop();

            log.info("detection {} ms, {} errors in the window, recovery {} ms after heal, slowest call {} ms"
                    + " ({} ms beyond the client's own stalls, {} ms in all)", detectionMillis, errorsInWindow, recoveryMillis,
                    load.slowestMillis.get(), load.slowestMillisBeyondStalls(), load.stalledMillis());
            assertThat(load.errors.keySet()).as("error types").allMatch(type ->
                    type == MemcachedTimeoutException.class || MemcachedConnectionException.class.isAssignableFrom(type));
            assertThat(load.slowestMillisBeyondStalls()).as("slowest call beyond the client's own stalls (ms)")
                    .isLessThanOrEqualTo(CALL_BOUND_MILLIS);
            assertThat(load.wrongValues.get()).as("gets that returned another key's value").isZero();
            assertThat(load.errorsSince(healAt, TIMEOUT)).as("errors after the heal").isEmpty();
            return errorsInWindow;
        }
    }

    private static MemcachedClient client(boolean failover) {
        return MemcachedClient.builder().servers(memcached.addresses())
                .operationTimeout(TIMEOUT).connectTimeout(TIMEOUT)
                .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200))
                .healthCheckInterval(Duration.ofMillis(50), MAX_HEALTH_CHECK)
                .failover(failover).build();
    }

    private static String owner(MemcachedClient client, String key) {
        return client.ownerOf(key).toString();
    }

    private static String keyOwnedBy(MemcachedClient client, MemcachedProcess server) {
        for (int i = 0; ; i++) {
            if (owner(client, "key-" + i).equals(server.address())) {
                return "key-" + i;
            }
        }
    }

    private static String keyNotOwnedBy(MemcachedClient client, MemcachedProcess server) {
        for (int i = 0; ; i++) {
            if (!owner(client, "other-" + i).equals(server.address())) {
                return "other-" + i;
            }
        }
    }
}
