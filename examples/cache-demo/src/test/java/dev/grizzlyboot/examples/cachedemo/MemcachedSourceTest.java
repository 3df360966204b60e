package dev.grizzlyboot.examples.cachedemo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;

/** How the demo finds its memcached: configured servers, then the binary, then Docker, then a message. */
class MemcachedSourceTest {

    @Test
    void configuredServersWinWithoutProbingAnything() {
        AtomicInteger probes = new AtomicInteger();
        assertThat(MemcachedSource.choose(true, counting(probes, true), counting(probes, true)))
                .isEqualTo(MemcachedSource.CONFIGURED);
        assertThat(probes).hasValue(0);
    }

    @Test
    void theBinaryComesBeforeDockerAndDockerIsNotAsked() {
        AtomicInteger dockerProbes = new AtomicInteger();
        assertThat(MemcachedSource.choose(false, () -> true, counting(dockerProbes, true)))
                .isEqualTo(MemcachedSource.LOCAL_PROCESSES);
        assertThat(dockerProbes).hasValue(0);
    }

    @Test
    void dockerIsTheFallbackWhenTheBinaryIsMissing() {
        assertThat(MemcachedSource.choose(false, () -> false, () -> true)).isEqualTo(MemcachedSource.DOCKER_CONTAINER);
    }

    @Test
    void neitherGivesAMessageThatSaysBothWays() {
        assertThat(MemcachedSource.choose(false, () -> false, () -> false)).isEqualTo(MemcachedSource.NONE);
        assertThat(MemcachedSource.NONE_MESSAGE).contains("apt-get install -y memcached", "brew install memcached",
                "Docker", "--grizzly.memcached.servers");
    }

    @Test
    void onThisMachineTheBinaryIsFound() {
        // CI installs memcached; the demo's first command must take the local-process path here.
        assertThat(MemcachedProcess.installed()).isTrue();
        assertThat(MemcachedSource.choose(false, MemcachedProcess::installed, () -> {
            throw new AssertionError("Docker must not be asked when the binary is installed");
        })).isEqualTo(MemcachedSource.LOCAL_PROCESSES);
    }

    private static BooleanSupplier counting(AtomicInteger probes, boolean answer) {
        return () -> {
            probes.incrementAndGet();
            return answer;
        };
    }
}
