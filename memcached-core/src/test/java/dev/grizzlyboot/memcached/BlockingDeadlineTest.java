package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A blocking call returns within the operation timeout plus the facade's grace even when the
 * client's sweeper thread (which times operations out) cannot run, as on a starved machine. The
 * sweeper is held deterministically: it tells server-state listeners about failures on its own
 * thread, and this test's listener does not return until the test is done.
 */
class BlockingDeadlineTest {

    private static final Duration TIMEOUT = Duration.ofMillis(200);
    /** The facade's own deadline plus room for the caller thread itself to be scheduled. */
    private static final long BOUND_MILLIS = TIMEOUT.toMillis() + BlockingMemcachedClient.GRACE_MILLIS + 300;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    @Test
    void blockingCallsKeepTheirDeadlineWhileTheSweeperIsHeld() throws Exception {
        MemcachedProcess first = memcached.get(0);
        MemcachedProcess second = memcached.get(1);
        CountDownLatch sweeperHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (MemcachedClient client = MemcachedClient.builder().servers(first.address(), second.address())
                .failureThreshold(1).operationTimeout(TIMEOUT).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            String onFirst = keyOwnedBy(client, first);
            client.addServerStateListener(state -> {
                if (state.failed() && Thread.currentThread().getName().contains("sweeper")) {
                    sweeperHeld.countDown();
                    awaitQuietly(release);
                }
            });
            first.pause();
            second.pause();
            // The sweeper times this call out, marks the first server failed and stays in our listener.
            assertThatThrownBy(() -> blocking.get(onFirst)).isInstanceOf(MemcachedTimeoutException.class);
            // (A timeout right after this JVM was starved does not count, so a loaded machine may need more calls.)
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                client.get(onFirst);
                return sweeperHeld.await(TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
            });

            // The first server is out of the ring, so this goes to the (hung) second server; nobody sweeps.
            long start = System.nanoTime();
            assertThatThrownBy(() -> blocking.get(onFirst)).isInstanceOf(MemcachedTimeoutException.class)
                    .hasMessageContaining("sweeper");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(millis).as("blocking call with the sweeper held (ms)").isLessThanOrEqualTo(BOUND_MILLIS);
        } finally {
            release.countDown();
            first.resume();
            second.resume();
        }
    }

    private static String keyOwnedBy(MemcachedClient client, MemcachedProcess server) {
        for (int i = 0; ; i++) {
            String key = "deadline-" + i;
            if (client.ownerOf(key).toString().equals(server.address())) {
                return key;
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
