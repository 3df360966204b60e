package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import dev.grizzlyboot.testsupport.Stalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server killed (SIGKILL) or hung (SIGSTOP) under concurrent load: every call returns within
 * the operation timeout (plus the sweep tick, scheduling slack and the time the test JVM itself was
 * stalled, see {@link Stalls}), only with typed errors, no caller thread is stuck, and the client
 * serves again once the server is back.
 */
class ServerFailureTest {

    private static final Duration TIMEOUT = Duration.ofMillis(250);
    /** Timeout + one sweep tick + generous scheduling slack on a loaded 2-core machine. */
    private static final long BOUND_MILLIS = TIMEOUT.toMillis() + 500;
    /** How long to wait for what must happen eventually: generous, as a loaded machine may run this JVM seldom. */
    private static final Duration AWAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void killedServerUnderLoad() throws Exception {
        runFaultUnderLoad(MemcachedProcess::kill, MemcachedProcess::restart);
    }

    @Test
    void hungServerUnderLoad() throws Exception {
        runFaultUnderLoad(MemcachedProcess::pause, MemcachedProcess::resume);
    }

    private void runFaultUnderLoad(java.util.function.Consumer<MemcachedProcess> fault,
            java.util.function.Consumer<MemcachedProcess> heal) throws Exception {
        MemcachedProcess server = memcached.first();
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address())
                .operationTimeout(TIMEOUT).connectTimeout(TIMEOUT)
                .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200)).build()) {
            Load load = new Load(client.blocking(), 16, 1, Duration.ofMinutes(2));
            await().atMost(AWAIT).until(() -> load.successes.get() > 1_000);

            fault.accept(server);
            long errorsBefore = load.errorCount();
            await().atMost(AWAIT).until(() -> load.errorCount() > errorsBefore + 50);
            heal.accept(server);

            long successesAfterHeal = load.successes.get();
            await().atMost(AWAIT).until(() -> load.successes.get() > successesAfterHeal + 1_000);
            load.stop();

            assertThat(load.slowestMillisBeyondStalls()).as("slowest call beyond the client's own stalls (ms); %d ms with them",
                    load.slowestMillis.get()).isLessThanOrEqualTo(BOUND_MILLIS);
            assertThat(load.errors.keySet()).as("error types").isNotEmpty()
                    .allMatch(type -> type == MemcachedTimeoutException.class || MemcachedConnectionException.class.isAssignableFrom(type));
            // Recovered: the data path works end to end again.
            client.blocking().set("after-fault", "ok", Duration.ZERO);
            assertThat(client.blocking().get("after-fault")).isEqualTo("ok");
        }
    }
}
