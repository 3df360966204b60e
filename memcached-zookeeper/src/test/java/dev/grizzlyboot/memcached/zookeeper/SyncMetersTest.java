package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A member's switch counter, commit skew and clock offset, by name and tags, against a real ZooKeeper. */
class SyncMetersTest {

    @RegisterExtension
    static ZooKeeperExtension zooKeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    @Test
    void aCommittedChangeIsCountedAndItsSkewMeasured() throws Exception {
        MeterRegistry firstMeters = new SimpleMeterRegistry();
        MeterRegistry secondMeters = new SimpleMeterRegistry();
        List<String> before = memcached.addresses().subList(0, 1);
        try (TestMember first = TestMember.join("metered", "first", before,
                builder -> builder.connectString(zooKeeper.connectString()).meterRegistry(firstMeters));
                TestMember second = TestMember.join("metered", "second", before,
                        builder -> builder.connectString(zooKeeper.connectString()).meterRegistry(secondMeters))) {
            double switchesBefore = switches(secondMeters);
            assertThat(skew(secondMeters).count()).isZero();

            long proposed = first.sync.proposeServers(memcached.addresses(), first.state().version());
            SyncState secondSwitch = second.awaitSwitch(proposed);
            first.awaitSwitch(proposed);

            assertThat(switches(secondMeters)).isEqualTo(switchesBefore + 1);
            Timer skew = skew(secondMeters);
            assertThat(skew.count()).isOne();
            long skewMillis = (long) skew.totalTime(TimeUnit.MILLISECONDS);
            assertThat(secondSwitch.commitAtMillis()).isNotZero();
            assertThat(skewMillis).isEqualTo(secondSwitch.appliedAtMillis() - secondSwitch.commitAtMillis());
            assertThat(skew(firstMeters).count()).isOne();
            assertThat(secondMeters.get("memcached.zookeeper.clock.offset").tag("cluster", "metered").gauge().value())
                    .isEqualTo(second.state().clockOffsetMillis());
        }
        assertThat(secondMeters.getMeters()).as("meters left after close").isEmpty();
    }

    private static double switches(MeterRegistry registry) {
        return registry.get("memcached.zookeeper.switches").tag("cluster", "metered").counter().count();
    }

    private static Timer skew(MeterRegistry registry) {
        return registry.get("memcached.zookeeper.commit.skew").tag("cluster", "metered").timer();
    }
}
