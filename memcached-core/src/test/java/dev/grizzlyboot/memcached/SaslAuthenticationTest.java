package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.grizzlyboot.memcached.cluster.ServerState;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SASL PLAIN against real memcached processes started with {@code -S}: every new connection logs
 * in before it carries requests (at start, when the pool grows, on reconnect and for the health
 * check that brings a failed server back); bulk reads stay binary (memcached's SASL is); a wrong
 * password is a typed error that names the server, never the password, and the server is not
 * hammered with new logins.
 */
class SaslAuthenticationTest {

    private static final String USER = "app";
    private static final String PASSWORD = "s3cret-Pa55";

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(1, MemcachedOptions.defaults().withSasl(USER, PASSWORD));

    @Test
    void everyConnectionOfAGrowingPoolLogsInBeforeItCarriesRequests() {
        MemcachedProcess server = memcached.first();
        Map<String, String> before = server.stats();
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address())
                .authentication(USER, PASSWORD).connectionsPerServer(1, 4).pipelineDepth(1).build()) {
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                writes.add(client.set("sasl:" + i, "v" + i, Duration.ZERO));
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
            assertThat(client.blocking().get("sasl:399")).isEqualTo("v399");
            // With credentials bulk reads stay binary: the server refuses the text protocol.
            assertThat(client.blocking().getsMulti(List.of("sasl:1", "sasl:2", "sasl:none")).values())
                    .containsOnly(Map.entry("sasl:1", "v1"), Map.entry("sasl:2", "v2"));
            Map<String, String> after = server.stats();
            // Each connection logged in once, and the pool did grow beyond one connection (the
            // oracle's second stats connection logs in too: one more).
            long logins = delta(before, after, "auth_cmds") - 1;
            assertThat(logins).isGreaterThan(1).isLessThanOrEqualTo(4);
            assertThat(delta(before, after, "auth_errors")).isZero();
        }
    }

    @Test
    void reconnectsAndTheFailbackHealthCheckLogInToo() {
        MemcachedProcess server = memcached.first();
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address())
                .authentication(USER, PASSWORD).operationTimeout(Duration.ofMillis(300)).connectTimeout(Duration.ofMillis(300))
                .failureThreshold(1).healthCheckInterval(Duration.ofMillis(50), Duration.ofMillis(200)).build()) {
            client.blocking().set("before", "1", Duration.ZERO);
            server.kill();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                try {
                    client.blocking().get("before");
                } catch (MemcachedException expected) {
                    // the kill is seen
                }
                return client.serverStates().get(0).status() == ServerState.Status.FAILED;
            });
            server.restart();
            // Only the health check (VERSION over a fresh connection) can bring the server back, and a
            // fresh connection to a -S server answers nothing before it has logged in.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> client.serverStates().get(0).status() == ServerState.Status.ACTIVE);
            client.blocking().set("after", "2", Duration.ZERO);
            assertThat(client.blocking().get("after")).isEqualTo("2");
            assertThat(stat(server, "auth_cmds")).isPositive();
            assertThat(stat(server, "auth_errors")).isZero();
        }
    }

    @Test
    void wrongPasswordIsATypedErrorNamingTheServerButNotThePassword() {
        MemcachedProcess server = memcached.first();
        String wrong = "wrong-Pa55word";
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address())
                .authentication(USER, wrong).failover(false).build()) {
            assertThatThrownBy(() -> client.get("k").join())
                    .isInstanceOf(CompletionException.class)
                    .cause()
                    .isInstanceOf(AuthenticationException.class)
                    .hasMessageContaining(server.address())
                    .hasMessageContaining("'" + USER + "'")
                    .satisfies(error -> assertThat(error.getMessage()).doesNotContain(wrong));
            assertThat(((AuthenticationException) catchCause(client)).status()).isEqualTo(ServerStatus.AUTHENTICATION_ERROR);
        }
    }

    @Test
    void aRefusedLoginBacksOffInsteadOfHammeringTheServer() {
        MemcachedProcess server = memcached.first();
        long refusedBefore = stat(server, "auth_errors");
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address())
                .authentication(USER, "wrong").reconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
                .healthCheckInterval(Duration.ofMillis(100), Duration.ofSeconds(1)).build()) {
            long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            int calls = 0;
            while (System.nanoTime() - end < 0) {
                try {
                    client.blocking().get("k" + calls);
                } catch (MemcachedException expected) {
                    assertThat(expected).isInstanceOfAny(AuthenticationException.class, ServerUnavailableException.class);
                }
                calls++;
            }
            long refused = stat(server, "auth_errors") - refusedBefore;
            // Back-off and health checks double from 100 ms (capped at 1 s): about 10 logins in 2 s,
            // against one per call (thousands) without it.
            assertThat(calls).isGreaterThan(100);
            assertThat(refused).isBetween(1L, 20L);
        }
    }

    @Test
    void aClientWithoutCredentialsGetsAuthenticationErrors() {
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.first().address()).build()) {
            assertThatThrownBy(() -> client.blocking().get("k")).isInstanceOf(AuthenticationException.class);
        }
    }

    @Test
    void aClientWithoutCredentialsGetsAuthenticationErrorsFromBulkReadsAndWritesAndBacksOff() {
        // memcached -S answers a request made without a login with AUTHENTICATION_ERROR and closes the
        // connection: the keys of a bulk read used to fail as a lost connection, which also marked the
        // server failed, so later writes failed as "marked failed (connection lost)".
        MemcachedProcess server = memcached.first();
        long connectionsBefore = stat(server, "total_connections");
        try (MemcachedClient client = MemcachedClient.builder().servers(server.address())
                .reconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
                .healthCheckInterval(Duration.ofMillis(100), Duration.ofSeconds(1)).build()) {
            Map<String, MemcachedException> errors = client.blocking().getMulti(List.of("a", "b", "c")).errors();
            assertThat(errors).containsOnlyKeys("a", "b", "c");
            assertThat(errors.values()).allSatisfy(error -> assertThat(error).isInstanceOf(AuthenticationException.class));
            long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            int calls = 0;
            while (System.nanoTime() - end < 0) {
                assertThatThrownBy(() -> client.blocking().set("k", "v", Duration.ZERO))
                        .isInstanceOf(MemcachedException.class)
                        .hasStackTraceContaining("AUTHENTICATION_ERROR");
                calls++;
            }
            assertThat(calls).isGreaterThan(100);
        }
        // Back-off and health checks double from 100 ms: about 10 connections in 2 s, not one per call.
        assertThat(stat(server, "total_connections") - connectionsBefore).isLessThan(30);
    }

    private static Throwable catchCause(MemcachedClient client) {
        try {
            client.blocking().get("again");
        } catch (MemcachedException e) {
            return e;
        }
        throw new AssertionError("expected the login to be refused again");
    }

    private static long delta(Map<String, String> before, Map<String, String> after, String name) {
        return Long.parseLong(after.get(name)) - Long.parseLong(before.get(name));
    }

    private static long stat(MemcachedProcess server, String name) {
        return Long.parseLong(server.stats().get(name));
    }
}
