package dev.grizzlyboot.memcached.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.IoStrategy;
import dev.grizzlyboot.memcached.internal.protocol.Opcode;
import dev.grizzlyboot.memcached.internal.protocol.Request;
import dev.grizzlyboot.memcached.internal.protocol.SingleOperation;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A connection that closes leaves its pool before it counts as closed. A pool that still listed a
 * closed connection would count it against its maximum: a caller coming in between would find no
 * usable connection and no room to open one, and fail at once as if the server were unreachable.
 * The test holds the pool's lock, so the closing connection stops at the moment it leaves the
 * pool, and a caller comes exactly then.
 */
class ConnectionLeavingPoolTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void aCallerAsTheOnlyConnectionLeavesThePoolIsAnsweredOnTheNext() throws Exception {
        // No connection kept when idle, at most one: the idle close leaves the pool empty.
        PoolSettings settings = new PoolSettings(0, 1, 32, Duration.ofSeconds(2), Duration.ofMillis(1), Duration.ofSeconds(30),
                Duration.ofSeconds(30));
        try (ClientTransport transport = new ClientTransport(IoStrategy.SAME_THREAD, 1, 2, 1 << 20,
                new ConnectionSecurity(null, null))) {
            ConnectionPool pool = new ConnectionPool("127.0.0.1", memcached.first().port(), transport, settings, QuietPoolEvents.onlyServer());
            assertThat(noop(pool).get(5, TimeUnit.SECONDS)).isNull();
            Object lock = lockOf(pool);
            Thread sweeper = new Thread(() -> pool.maintain(System.nanoTime() + TimeUnit.SECONDS.toNanos(1)));
            CompletableFuture<Void> call;
            synchronized (lock) {
                sweeper.start();
                await().atMost(Duration.ofSeconds(5)).until(() -> closingConnectionWaitsFor(lock));
                call = noop(pool);
            }
            assertThat(call.get(5, TimeUnit.SECONDS)).isNull();
            sweeper.join(TimeUnit.SECONDS.toMillis(5));
            assertThat(pool.openConnections()).isEqualTo(1);
            pool.close();
        }
    }

    private static CompletableFuture<Void> noop(ConnectionPool pool) {
        SingleOperation<Void> noop = new SingleOperation<>("noop", null, Request.of(Opcode.NOOP), TimeUnit.SECONDS.toNanos(5),
                (response, operation) -> null);
        pool.send(noop);
        return noop.future();
    }

    private static Object lockOf(ConnectionPool pool) throws ReflectiveOperationException {
        Field lock = ConnectionPool.class.getDeclaredField("lock");
        lock.setAccessible(true);
        return lock.get(pool);
    }

    /** Whether a thread closing a connection is blocked on {@code lock}: the connection is leaving the pool. */
    private static boolean closingConnectionWaitsFor(Object lock) {
        int identity = System.identityHashCode(lock);
        for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(true, false)) {
            if (thread.getThreadState() == Thread.State.BLOCKED && thread.getLockInfo() != null
                    && thread.getLockInfo().getIdentityHashCode() == identity
                    && Arrays.stream(thread.getStackTrace()).anyMatch(frame -> frame.getMethodName().equals("onClosed"))) {
                return true;
            }
        }
        return false;
    }
}
