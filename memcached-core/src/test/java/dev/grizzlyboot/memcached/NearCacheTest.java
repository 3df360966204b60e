package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The near cache serves repeated reads locally, sees its own client's writes at once, sees other
 * clients' writes only after its TTL, and never hands two callers the same mutable object.
 */
class NearCacheTest {

    /** Long enough that a stalled test thread does not see a local copy expire where the test reads it as fresh. */
    private static final Duration NEAR_TTL = Duration.ofSeconds(2);

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private MemcachedClient near;
    private MemcachedClient other;

    @BeforeEach
    void clients() {
        near = MemcachedClient.builder().servers(memcached.addresses()).nearCache(NEAR_TTL, 1_000).build();
        other = MemcachedClient.builder().servers(memcached.addresses()).build();
        memcached.servers().flushAll();
    }

    @AfterEach
    void close() {
        near.close();
        other.close();
    }

    /**
     * getFresh refreshes the local copy, a miss included: a key another client deleted must not
     * come back from the copy right after getFresh found it gone.
     */
    @Test
    void getFreshThatMissesDropsTheLocalCopy() {
        near.blocking().set("deleted-elsewhere", "value", Duration.ZERO);
        assertThat(near.blocking().get("deleted-elsewhere")).isEqualTo("value");
        other.blocking().delete("deleted-elsewhere");
        assertThat(near.blocking().getFresh("deleted-elsewhere")).isNull();
        assertThat(near.blocking().get("deleted-elsewhere")).as("read after getFresh missed").isNull();
    }

    @Test
    void repeatedReadsAreServedLocally() {
        near.blocking().set("local", "value", Duration.ZERO);
        assertThat(near.blocking().get("local")).isEqualTo("value");
        long gets = serverGets();
        for (int i = 0; i < 20; i++) {
            assertThat(near.blocking().get("local")).isEqualTo("value");
        }
        assertThat(near.blocking().getMulti(List.of("local")).values()).containsEntry("local", "value");
        assertThat(serverGets()).as("gets reaching memcached").isEqualTo(gets);

        assertThat(near.blocking().getFresh("local")).isEqualTo("value");
        assertThat(serverGets()).isEqualTo(gets + 1);
    }

    @Test
    void ownWritesAreSeenAtOnceOtherClientsWritesAfterTheTtl() {
        near.blocking().set("shared", "first", Duration.ZERO);
        assertThat(near.blocking().get("shared")).isEqualTo("first");

        near.blocking().set("shared", "second", Duration.ZERO);
        assertThat(near.blocking().get("shared")).as("own write").isEqualTo("second");
        near.blocking().delete("shared");
        assertThat(near.blocking().get("shared")).as("own delete").isNull();

        near.blocking().set("shared", "third", Duration.ZERO);
        assertThat(near.blocking().get("shared")).isEqualTo("third");
        long written = System.nanoTime();
        other.blocking().set("shared", "from-another-client", Duration.ZERO);
        assertThat(near.blocking().get("shared")).as("stale within the TTL").isEqualTo("third");
        await().atMost(NEAR_TTL.plusSeconds(2)).until(() -> "from-another-client".equals(near.blocking().get("shared")));
        assertThat(Duration.ofNanos(System.nanoTime() - written)).isLessThan(NEAR_TTL.plusSeconds(2));
    }

    @Test
    void bulkReadsMixLocalCopiesAndServerReadsAndBulkWritesInvalidate() {
        near.blocking().set("a", "1", Duration.ZERO);
        near.blocking().get("a");
        other.blocking().set("b", "2", Duration.ZERO);
        BulkResult<Object> mixed = near.blocking().getMulti(List.of("a", "b", "missing"));
        assertThat(mixed.values()).containsExactly(Map.entry("a", "1"), Map.entry("b", "2"));
        assertThat(mixed.outcome("missing")).isEqualTo(Outcome.NOT_FOUND);

        near.blocking().setMulti(Map.of("a", "10", "b", "20"), Duration.ZERO);
        assertThat(near.blocking().getMulti(List.of("a", "b")).values()).containsEntry("a", "10").containsEntry("b", "20");
        near.blocking().deleteMulti(List.of("a"));
        assertThat(near.blocking().get("a")).isNull();
    }

    @Test
    void everyReaderGetsItsOwnCopy() {
        near.blocking().set("list", new ArrayList<>(List.of("x")), Duration.ZERO);
        @SuppressWarnings("unchecked")
        List<String> first = (List<String>) near.blocking().get("list");
        first.add("changed by the first reader");
        assertThat(near.blocking().get("list")).isEqualTo(List.of("x"));
    }

    private static long serverGets() {
        MemcachedProcess server = memcached.first();
        return Long.parseLong(server.stats().get("cmd_get"));
    }
}
