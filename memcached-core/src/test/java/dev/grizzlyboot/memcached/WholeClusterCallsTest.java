package dev.grizzlyboot.memcached;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerDetails;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Whole-cluster calls ({@code version}, {@code stats}, {@code noop}, {@code flushAll}) against three
 * real servers, one of them hung (SIGSTOP) or killed: the per-server variants report every server
 * on its own, the all-or-nothing variants fail with the dead server's typed error.
 */
class WholeClusterCallsTest {

    private static final Duration TIMEOUT = Duration.ofMillis(300);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    @AfterEach
    void heal() {
        memcached.servers().heal();
    }

    @Test
    void everyServerAnswersWhenAllAreUp() {
        try (MemcachedClient client = client()) {
            ServerResults<String> versions = client.versionEach().join();
            assertThat(versions.allSucceeded()).isTrue();
            assertThat(versions.asMap().keySet()).containsExactlyElementsOf(client.servers());
            assertThat(versions.values().values()).allMatch(version -> version.startsWith("1."));
            ServerResults<Map<String, String>> stats = client.statsEach("").join();
            for (int i = 0; i < 3; i++) {
                MemcachedProcess server = memcached.get(i);
                assertThat(stats.get(ServerAddress.parse(server.address())).value())
                        .containsEntry("pid", server.stats().get("pid"));
            }
            assertThat(client.noopEach().join().allSucceeded()).isTrue();
        }
    }

    @Test
    void aHungServerFailsOnlyItsOwnEntry() {
        try (MemcachedClient client = client()) {
            client.noop().join();
            MemcachedProcess hung = memcached.get(1);
            ServerAddress hungAddress = ServerAddress.parse(hung.address());
            hung.pause();

            ServerResults<String> versions = client.versionEach().join();
            assertThat(versions.size()).isEqualTo(3);
            assertThat(versions.errors()).containsOnlyKeys(hungAddress);
            assertThat(versions.get(hungAddress).error()).isInstanceOf(MemcachedTimeoutException.class);
            assertThat(versions.values()).hasSize(2).doesNotContainKey(hungAddress);

            ServerResults<Map<String, String>> stats = client.statsEach("").join();
            assertThat(stats.errors()).containsOnlyKeys(hungAddress);
            assertThat(stats.values()).hasSize(2);
            assertThat(client.noopEach().join().errors()).containsOnlyKeys(hungAddress);

            assertThat(client.blocking().versionEach().errors()).containsOnlyKeys(hungAddress);
            assertThat(client.blocking().statsEach("settings").values()).hasSize(2);
            assertThatThrownBy(() -> client.version().join()).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(MemcachedTimeoutException.class);
            assertThatThrownBy(() -> client.blocking().stats()).isInstanceOf(MemcachedTimeoutException.class);
        }
    }

    @Test
    void flushAllEachFlushesTheLiveServersWhenOneIsDead() {
        try (MemcachedClient client = client()) {
            client.blocking().set("flush-me", "v", Duration.ZERO);
            MemcachedProcess owner = memcached.get(client.servers().indexOf(client.ownerOf("flush-me")));
            MemcachedProcess dead = memcached.get((client.servers().indexOf(client.ownerOf("flush-me")) + 1) % 3);
            dead.kill();

            ServerResults<Void> flushed = client.flushAllEach(Duration.ZERO).join();
            assertThat(flushed.errors()).containsOnlyKeys(ServerAddress.parse(dead.address()));
            assertThat(flushed.errors().values()).allMatch(error -> error instanceof MemcachedConnectionException
                    || error instanceof MemcachedTimeoutException);
            assertThat(owner.textCommand("get flush-me")).containsExactly("END");
        }
    }

    @Test
    void serverDetailsShowWeightsStatesAndPools() {
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addresses())
                .weight(memcached.get(0).address(), 3).connectionsPerServer(1, 2).operationTimeout(TIMEOUT).build()) {
            client.noop().join();
            assertThat(client.serverDetails()).extracting(ServerDetails::server).containsExactlyElementsOf(client.servers());
            assertThat(client.serverDetails()).extracting(ServerDetails::weight).containsExactly(3, 1, 1);
            assertThat(client.serverDetails()).allMatch(details -> !details.state().failed()
                    && details.openConnections() >= 1 && details.pending() == 0);
            assertThat(client.nearCacheSize()).isZero();
        }
    }

    private static MemcachedClient client() {
        return MemcachedClient.builder().servers(memcached.addresses()).operationTimeout(TIMEOUT)
                .connectTimeout(TIMEOUT).failover(false).build();
    }
}
