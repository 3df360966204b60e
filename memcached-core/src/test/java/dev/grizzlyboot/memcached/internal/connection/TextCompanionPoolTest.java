package dev.grizzlyboot.memcached.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.IoStrategy;
import dev.grizzlyboot.memcached.Outcome;
import dev.grizzlyboot.memcached.internal.protocol.TextBulkRead;
import org.junit.jupiter.api.Test;

/**
 * A pool's text companion keeps its own held operations: a bulk read held while the server is
 * unreachable goes out on a text connection when one opens, never on the binary pool's new
 * connection (memcached would take its {@code get} line as the connection's protocol, or as
 * garbage), while the cluster, routing a failed server's held operations elsewhere, gets both pools'.
 */
class TextCompanionPoolTest {

    @Test
    void aBulkReadHeldByTheTextPoolStaysThereWhenABinaryConnectionOpens() throws Exception {
        int refusingPort;
        try (ServerSocket closedAgain = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            refusingPort = closedAgain.getLocalPort();
        }
        // A refused connect backs off for 30 s: nothing reconnects during the test.
        PoolSettings settings = new PoolSettings(0, 1, 32, Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofSeconds(30),
                Duration.ofSeconds(30));
        try (ClientTransport transport = new ClientTransport(IoStrategy.SAME_THREAD, 1, 2, 1 << 20,
                new ConnectionSecurity(null, null))) {
            ConnectionPool pool = new ConnectionPool("127.0.0.1", refusingPort, transport, settings, QuietPoolEvents.holding(), true);
            TextBulkRead<Object> read = new TextBulkRead<>("getMulti", false, List.of("a"), new byte[][] {{'a'}},
                    TimeUnit.SECONDS.toNanos(30), (response, operation) -> null, Outcome.NOT_FOUND);
            pool.textBulkReads().send(read);
            await().atMost(Duration.ofSeconds(5)).until(() -> pool.size() == 0);
            assertThat(read.isDone()).as("held, not failed").isFalse();

            pool.connected();

            assertThat(pool.textBulkReads().takeUnsent()).containsExactly(read);
            pool.textBulkReads().send(read);
            await().atMost(Duration.ofSeconds(5)).until(() -> pool.size() == 0);
            assertThat(pool.takeUnsent()).as("the cluster's hand-over takes the companion's too").containsExactly(read);
            pool.close();
        }
    }
}
