package dev.grizzlyboot.benchmarks.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;

import org.junit.jupiter.api.Test;

/** The class path a build of an A/B run gets, how {@code --builds} is read, and which peers {@code --clients} selects. */
class ContendersTest {

    @Test
    void aBuildReplacesOurLibraryAndKeepsEverythingElseInOrder() {
        String harness = String.join(File.pathSeparator,
                "/w/benchmarks/target/classes",
                "/w/memcached-core/target/grizzlyboot-memcached-0.1.0-SNAPSHOT.jar",
                "/w/memcached-zookeeper/target/grizzlyboot-memcached-zookeeper-0.1.0-SNAPSHOT.jar",
                "/m2/com/googlecode/xmemcached/xmemcached/2.4.8/xmemcached-2.4.8.jar",
                "/w/memcached-core/target/classes",
                "/m2/org/glassfish/grizzly/grizzly-framework/4.0.2/grizzly-framework-4.0.2.jar");

        assertThat(Contenders.classpathWith("/tmp/b.jar", harness).split(File.pathSeparator)).containsExactly(
                "/tmp/b.jar",
                "/w/benchmarks/target/classes",
                "/w/memcached-zookeeper/target/grizzlyboot-memcached-zookeeper-0.1.0-SNAPSHOT.jar",
                "/m2/com/googlecode/xmemcached/xmemcached/2.4.8/xmemcached-2.4.8.jar",
                "/m2/org/glassfish/grizzly/grizzly-framework/4.0.2/grizzly-framework-4.0.2.jar");
    }

    @Test
    void buildsAreNamedJars() {
        BenchOptions options = BenchOptions.parse(new String[] {"--builds=a=/tmp/a.jar,b=/tmp/x=y.jar"});

        assertThat(options.builds()).containsExactly(
                new BenchOptions.Build("a", "/tmp/a.jar"), new BenchOptions.Build("b", "/tmp/x=y.jar"));
        assertThat(BenchOptions.parse(new String[0]).builds()).isEmpty();
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--builds=/tmp/a.jar"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NAME=JAR");
    }

    @Test
    void allRunsTwoPeersTextProtocolInGetMultiOnlyAndTheOriginalEverywhereElse() {
        BenchOptions all = BenchOptions.parse(new String[0]);

        assertThat(Contenders.clientsOnOurClasspath(all, true))
                .containsExactly("grizzly-boot", "spymemcached", "xmemcached", "folsom", "xmemcached-text", "folsom-text");
        assertThat(Contenders.clientsOnOurClasspath(all, false))
                .containsExactly("grizzly-boot", "spymemcached", "xmemcached", "folsom");
        assertThat(Contenders.workloadsOf("folsom-text", all).contains(Workload.GET_MULTI)).isTrue();
        assertThat(Contenders.workloadsOf("folsom-text", all).contains(Workload.GET)).isFalse();
        assertThat(Contenders.workloadsOf("xmemcached-text", all).contains(Workload.SET_MULTI)).isFalse();
        assertThat(Contenders.workloadsOf("xmemcached", all).contains(Workload.SET_MULTI)).isTrue();
        assertThat(Contenders.workloadsOf("grizzly-memcached", all).contains(Workload.GET_MULTI)).isFalse();
        assertThat(Contenders.workloadsOf("grizzly-memcached", all).contains(Workload.GET)).isTrue();
        assertThat(Contenders.workloadsOf("grizzly-memcached",
                BenchOptions.parse(new String[] {"--clients=grizzly-boot,grizzly-memcached"})).contains(Workload.GET_MULTI)).isTrue();
    }

    @Test
    void aPeersTextProtocolNamedInClientsRunsEverywhere() {
        BenchOptions named = BenchOptions.parse(new String[] {"--clients=grizzly-boot,folsom-text,spymemcached-text"});

        assertThat(Contenders.clientsOnOurClasspath(named, false))
                .containsExactly("grizzly-boot", "spymemcached-text", "folsom-text");
        assertThat(Contenders.workloadsOf("folsom-text", named).contains(Workload.GET)).isTrue();
        assertThat(Contenders.workloadsOf("spymemcached-text", named).contains(Workload.SET)).isTrue();
    }
}
