package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server killed (SIGKILL) or hung (SIGSTOP) under concurrent load: every call returns within
 * the operation timeout (plus the sweep tick and scheduling slack), only with typed errors, no
 * caller thread is stuck, and the client serves again once the server is back.
 */
class ServerFailureTest {

    private static final Duration TIMEOUT = Duration.ofMillis(250);
    /** Timeout + one sweep tick + generous scheduling slack on a loaded 2-core machine. */
    private static final long BOUND_MILLIS = TIMEOUT.toMillis() + 500;

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
            Load load = new Load(client.blocking(), 16, 1, Duration.ofSeconds(40), Duration.ofMillis(BOUND_MILLIS * 4));
            await().atMost(Duration.ofSeconds(10)).until(() -> load.successes.get() > 1_000);

            fault.accept(server);
            long errorsBefore = load.errorCount();
            await().atMost(Duration.ofSeconds(10)).until(() -> load.errorCount() > errorsBefore + 50);
            heal.accept(server);

            long successesAfterHeal = load.successes.get();
            await().atMost(Duration.ofSeconds(10)).until(() -> load.successes.get() > successesAfterHeal + 1_000);
            load.stop();

            assertThat(load.slowestMillis.get()).as("slowest call (ms)").isLessThanOrEqualTo(BOUND_MILLIS);
            assertThat(load.errors.keySet()).as("error types").isNotEmpty()
                    .allMatch(type -> type == MemcachedTimeoutException.class || MemcachedConnectionException.class.isAssignableFrom(type));
            // Recovered: the data path works end to end again.
            client.blocking().set("after-fault", "ok", Duration.ZERO);
            assertThat(client.blocking().get("after-fault")).isEqualTo("ok");
        }
    }
}
